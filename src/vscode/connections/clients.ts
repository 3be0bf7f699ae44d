/**
 * One service client per connection, built from its settings and its credential: the key in
 * SecretStorage, or Entra ID tokens from the AuthManager. Resource Manager clients are shared per
 * token source and tenant. The cache follows the connection store: a connection that changes or
 * goes closes its client.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ArmClient } from '../../service/arm';
import type { AuthSource } from '../../service/connection';
import type { AzureOpenAIClient } from '../../service/client';
import type { Deployment } from '../../service/types';
import type { AuthManager, TokenSourceKind } from '../auth/authManager';
import { loadNetwork } from '../bundles';
import { proxySettings } from '../proxySettings';
import { setting } from '../settings';
import type { ConnectionInfo, ConnectionStore } from './connectionStore';

export class MissingCredentialError extends Error {
  override readonly name = 'MissingCredentialError';
}

interface Cached<T> {
  fingerprint: string;
  client: T;
  /** The connection as it was when the client was built (connection clients only). */
  info?: string;
}

export class ClientCache implements vscode.Disposable {
  private readonly clients = new Map<string, Cached<AzureOpenAIClient>>();
  private readonly armClients = new Map<string, Cached<ArmClient>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: ConnectionStore,
    private readonly auth: AuthManager,
  ) {
    this.subscriptions = [
      // Tokens dropped (sign-out, cloud changed): build clients afresh.
      auth.onDidChange(() => this.closeAll()),
      store.onDidChange(() => this.dropStale()),
      store.onDidChangeSecret((e) => e.kind === 'apiKey' && this.forget(e.connectionId)),
    ];
  }

  private timeoutMs(): number {
    return setting('requestTimeoutSeconds') * 1000;
  }

  async get(conn: ConnectionInfo): Promise<AzureOpenAIClient> {
    const timeoutMs = this.timeoutMs();
    const apiVersion = conn.apiVersion ?? setting('apiVersion');
    let auth: () => AuthSource;
    let credential: string;
    if (conn.auth === 'entraId') {
      credential = ['entra', this.auth.fingerprint(), conn.tokenSource ?? 'vscode', conn.tenantId ?? ''].join('|');
      auth = () => this.auth.dataAuth(conn.tokenSource ?? 'vscode', conn.tenantId);
    } else {
      const key = await this.store.apiKey(conn.id);
      if (!key) throw new MissingCredentialError(vscode.l10n.t('No API key is stored for "{0}". Edit the connection to enter it.', conn.label));
      credential = key;
      auth = () => ({ kind: 'apiKey', apiKey: key });
    }
    const proxy = proxySettings();
    // A changed key, endpoint or setting makes a new client; the key itself is not kept here.
    const fingerprint = createHash('sha256').update(JSON.stringify([conn.endpoint, apiVersion, timeoutMs, credential, proxy])).digest('hex');
    const cached = this.clients.get(conn.id);
    if (cached && cached.fingerprint === fingerprint) return cached.client;
    if (cached) void cached.client.close();
    const { AzureOpenAIClient } = loadNetwork();
    const client = new AzureOpenAIClient({ endpoint: conn.endpoint, auth: auth(), apiVersion, timeouts: { headersMs: timeoutMs, bodyMs: timeoutMs }, proxy });
    this.clients.set(conn.id, { fingerprint, client, info: JSON.stringify(conn) });
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
    const auth = this.auth.managementAuth(tokenSource, tenantId);
    const { ArmClient } = loadNetwork();
    const client = new ArmClient({ endpoint: cloud.resourceManagerEndpoint, auth, timeouts: { headersMs: timeoutMs, bodyMs: timeoutMs }, proxy });
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

  /** Closes the clients of connections that were removed or changed. */
  private dropStale(): void {
    const current = new Map(this.store.list().map((c) => [c.id, JSON.stringify(c)]));
    for (const [id, cached] of this.clients) if (current.get(id) !== cached.info) this.forget(id);
  }

  private forget(id: string): void {
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
    this.subscriptions.forEach((d) => d.dispose());
    this.closeAll();
  }
}
