/** One service client per connection, built from its settings and its key in SecretStorage. */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { AzureOpenAIClient } from '../../service/client';
import type { ConnectionInfo, ConnectionStore } from './connectionStore';

export class MissingCredentialError extends Error {
  override readonly name = 'MissingCredentialError';
}

export class ClientCache implements vscode.Disposable {
  private readonly clients = new Map<string, { fingerprint: string; client: AzureOpenAIClient }>();

  constructor(private readonly store: ConnectionStore) {}

  async get(conn: ConnectionInfo): Promise<AzureOpenAIClient> {
    if (conn.auth !== 'apiKey') throw new MissingCredentialError(`Entra ID sign-in for "${conn.label}" is not available yet. Edit the connection to use an API key.`);
    const key = await this.store.apiKey(conn.id);
    if (!key) throw new MissingCredentialError(`No API key is stored for "${conn.label}". Edit the connection to enter it.`);
    const timeoutMs = vscode.workspace.getConfiguration('aoaiWorkbench').get<number>('requestTimeoutSeconds', 60) * 1000;
    const apiVersion = conn.apiVersion ?? vscode.workspace.getConfiguration('aoaiWorkbench').get<string>('apiVersion');
    // A changed key, endpoint or setting makes a new client; the key itself is not kept here.
    const fingerprint = createHash('sha256').update(JSON.stringify([conn.endpoint, apiVersion, timeoutMs, key])).digest('hex');
    const cached = this.clients.get(conn.id);
    if (cached && cached.fingerprint === fingerprint) return cached.client;
    if (cached) void cached.client.close();
    const client = new AzureOpenAIClient({ endpoint: conn.endpoint, auth: { kind: 'apiKey', apiKey: key }, apiVersion, timeouts: { headersMs: timeoutMs, bodyMs: timeoutMs } });
    this.clients.set(conn.id, { fingerprint, client });
    return client;
  }

  forget(id: string): void {
    const c = this.clients.get(id);
    this.clients.delete(id);
    if (c) void c.client.close();
  }

  dispose(): void {
    for (const id of [...this.clients.keys()]) this.forget(id);
  }
}
