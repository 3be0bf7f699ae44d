/**
 * The owner of changes made from VS Code to a connection's webhook endpoints: it calls the
 * service, keeps the once-only signing secret of an endpoint it creates (and forgets it with the
 * endpoint), and fires `onDidChange` with the connection's id. The tree and the listener listen.
 */
import * as vscode from 'vscode';
import type { CreatedWebhookEndpoint, WebhookEndpoint, WebhookEndpointInput } from '../../service/types';
import type { ClientCache } from '../connections/clients';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';

export class WebhookEndpoints implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the connection id whose endpoints changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly store: ConnectionStore,
    private readonly clients: ClientCache,
  ) {}

  /** Every endpoint of the connection, all pages. */
  async all(conn: ConnectionInfo, signal?: AbortSignal): Promise<WebhookEndpoint[]> {
    const client = await this.clients.get(conn);
    const all: WebhookEndpoint[] = [];
    for await (const e of client.listWebhookEndpoints({ signal })) all.push(e);
    return all;
  }

  /** Creates an endpoint; its signing secret goes to SecretStorage before anything else can fail. */
  async create(conn: ConnectionInfo, input: WebhookEndpointInput): Promise<WebhookEndpoint> {
    const client = await this.clients.get(conn);
    const created: CreatedWebhookEndpoint = await client.createWebhookEndpoint(input);
    await this.store.storeSigningSecret(conn.id, created.id, created.signing_secret);
    this.changed.fire(conn.id);
    const { signing_secret: _secret, ...endpoint } = created;
    return endpoint;
  }

  async update(conn: ConnectionInfo, endpointId: string, changes: Partial<WebhookEndpointInput>): Promise<WebhookEndpoint> {
    const client = await this.clients.get(conn);
    const updated = await client.updateWebhookEndpoint(endpointId, changes);
    this.changed.fire(conn.id);
    return updated;
  }

  async delete(conn: ConnectionInfo, endpointId: string): Promise<void> {
    const client = await this.clients.get(conn);
    await client.deleteWebhookEndpoint(endpointId);
    await this.store.deleteSigningSecret(conn.id, endpointId);
    this.changed.fire(conn.id);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
