/**
 * One service client per connection, built from its settings and its credential: the key in
 * SecretStorage, or Entra ID tokens from the AuthManager. Resource Manager clients are shared per
 * token source and tenant.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { ArmClient } from '../../service/arm';
import type { AuthSource } from '../../service/connection';
import { AzureOpenAIClient } from '../../service/client';
import type { Deployment } from '../../service/types';
import type { AuthManager, TokenSourceKind } from '../auth/authManager';
import { proxySettings } from '../proxySettings';
import type { ConnectionInfo, ConnectionStore } from './connectionStore';

export class MissingCredentialError extends Error {
  override readonly name = 'MissingCredentialError';
}

interface Cached<T> {
  fingerprint: string;
  client: T;
}

export class ClientCache implements vscode.Disposable {
  private readonly clients = new Map<string, Cached<AzureOpenAIClient>>();
  private readonly armClients = new Map<string, Cached<ArmClient>>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: ConnectionStore,
    private readonly auth: AuthManager,
  ) {
    // Tokens dropped (sign-out, cloud changed): build clients afresh.
    this.subscription = auth.onDidChange(() => this.closeAll());
  }

  private timeoutMs(): number {
    return vscode.workspace.getConfiguration('aoaiWorkbench').get<number>('requestTimeoutSeconds', 60) * 1000;
  }

  async get(conn: ConnectionInfo): Promise<AzureOpenAIClient> {
    const timeoutMs = this.timeoutMs();
    const apiVersion = conn.apiVersion ?? vscode.workspace.getConfiguration('aoaiWorkbench').get<string>('apiVersion');
    let auth: () => AuthSource;
    let credential: string;
    if (conn.auth === 'entraId') {
      credential = ['entra', this.auth.fingerprint(), conn.tokenSource ?? 'vscode', conn.tenantId ?? ''].join('|');
      auth = () => this.auth.dataAuth(conn.tokenSource ?? 'vscode', conn.tenantId);
    } else {
      const key = await this.store.apiKey(conn.id);
      if (!key) throw new MissingCredentialError(`No API key is stored for "${conn.label}". Edit the connection to enter it.`);
      credential = key;
      auth = () => ({ kind: 'apiKey', apiKey: key });
    }
    const proxy = proxySettings();
    // A changed key, endpoint or setting makes a new client; the key itself is not kept here.
    const fingerprint = createHash('sha256').update(JSON.stringify([conn.endpoint, apiVersion, timeoutMs, credential, proxy])).digest('hex');
    const cached = this.clients.get(conn.id);
    if (cached && cached.fingerprint === fingerprint) return cached.client;
    if (cached) void cached.client.close();
    const client = new AzureOpenAIClient({ endpoint: conn.endpoint, auth: auth(), apiVersion, timeouts: { headersMs: timeoutMs, bodyMs: timeoutMs }, proxy });
    this.clients.set(conn.id, { fingerprint, client });
    return client;
  }

  /** A Resource Manager client for this token source and tenant, in the cloud of the settings. */
  arm(tokenSource: TokenSourceKind, tenantId?: string): ArmClient {
    const cloud = this.auth.cloud();
    const proxy = proxySettings();
    const fingerprint = `${this.auth.fingerprint()}|${JSON.stringify(proxy)}`;
    const key = `${tokenSource}|${tenantId ?? ''}`;
    const cached = this.armClients.get(key);
    if (cached && cached.fingerprint === fingerprint) return cached.client;
    if (cached) void cached.client.close();
    const timeoutMs = this.timeoutMs();
    const client = new ArmClient({ endpoint: cloud.resourceManagerEndpoint, auth: this.auth.managementAuth(tokenSource, tenantId), timeouts: { headersMs: timeoutMs, bodyMs: timeoutMs }, proxy });
    this.armClients.set(key, { fingerprint, client });
    return client;
  }

  /**
   * Deployments of a connection: from Resource Manager when the connection knows its account
   * (model version, SKU, capacity and rate limits), otherwise from the resource itself.
   */
  async listDeployments(conn: ConnectionInfo, signal?: AbortSignal): Promise<Deployment[]> {
    if (conn.auth === 'entraId' && conn.armId) return this.arm(conn.tokenSource ?? 'vscode', conn.tenantId).listDeployments(conn.armId, signal);
    return (await this.get(conn)).listDeployments({ signal });
  }

  forget(id: string): void {
    const c = this.clients.get(id);
    this.clients.delete(id);
    if (c) void c.client.close();
  }

  private closeAll(): void {
    for (const id of [...this.clients.keys()]) this.forget(id);
    for (const c of this.armClients.values()) void c.client.close();
    this.armClients.clear();
  }

  dispose(): void {
    this.subscription.dispose();
    this.closeAll();
  }
}
