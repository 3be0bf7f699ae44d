/**
 * The owner of changes made from VS Code to a connection's webhook endpoints: it calls the
 * service, keeps the once-only signing secret of an endpoint it creates (and forgets it with the
 * endpoint), remembers secret rotations in progress, and fires `onDidChange` with the
 * connection's id. The tree and the listener listen.
 */
import * as vscode from 'vscode';
import type { CreatedWebhookEndpoint, WebhookEndpoint, WebhookEndpointInput } from '../../service/types';
import { beginRotation, cancelRotation, finishRotation, rotationRole, type PendingRotation, type RotationEndpoints } from '../../webhooks/endpoints/rotation';
import type { ClientCache } from '../connections/clients';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';

const ROTATIONS_KEY = 'aoaiWorkbench.webhookRotations';

export class WebhookEndpoints implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the connection id whose endpoints changed. */
  readonly onDidChange = this.changed.event;

  private readonly storeChanged: vscode.Disposable;

  constructor(
    private readonly store: ConnectionStore,
    private readonly clients: ClientCache,
    /** Where rotations in progress are kept (all windows see them; ids only, never a secret). */
    private readonly globalState: vscode.Memento,
  ) {
    // A removed connection's rotations can never be finished or cancelled from here: forget them.
    this.storeChanged = store.onDidChange(() => void this.dropRotations((r) => !store.get(r.connectionId)));
  }

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
    // Either side of a rotation deleted (here or by Delete on its row) ends that rotation.
    await this.dropRotations((r) => r.connectionId === conn.id && (r.oldId === endpointId || r.newId === endpointId));
    this.changed.fire(conn.id);
  }

  /** Rotations begun and not finished or cancelled. */
  rotations(): PendingRotation[] {
    return this.globalState.get<PendingRotation[]>(ROTATIONS_KEY) ?? [];
  }

  rotationOf(connectionId: string, endpointId: string): ReturnType<typeof rotationRole> {
    return rotationRole(this.rotations(), connectionId, endpointId);
  }

  private ops(conn: ConnectionInfo): RotationEndpoints {
    return { create: (input) => this.create(conn, input), delete: (id) => this.delete(conn, id) };
  }

  private async setRotations(list: PendingRotation[]): Promise<void> {
    await this.globalState.update(ROTATIONS_KEY, list.length ? list : undefined);
  }

  private async dropRotations(ended: (r: PendingRotation) => boolean): Promise<void> {
    const all = this.rotations();
    const left = all.filter((r) => !ended(r));
    if (left.length !== all.length) await this.setRotations(left);
  }

  /** Creates the replacement (its secret kept) and remembers the rotation until it is finished or cancelled. */
  async beginRotation(conn: ConnectionInfo, old: WebhookEndpoint): Promise<PendingRotation> {
    if (this.rotationOf(conn.id, old.id)) throw new Error(vscode.l10n.t('"{0}" is in a rotation already: finish or cancel that one first.', old.name));
    const r = await beginRotation(this.ops(conn), conn.id, old);
    await this.setRotations([...this.rotations(), r]);
    this.changed.fire(conn.id);
    return r;
  }

  /** Deletes the old endpoint (and its secret); the replacement goes on alone. */
  async finishRotation(conn: ConnectionInfo, r: PendingRotation): Promise<void> {
    await finishRotation(this.ops(conn), r);
    // The old endpoint may have been gone already (deleted elsewhere): forget its secret and the rotation anyway.
    await this.store.deleteSigningSecret(conn.id, r.oldId);
    await this.dropRotations((x) => x.newId === r.newId);
    this.changed.fire(conn.id);
  }

  /** Deletes the replacement (and its secret); the old endpoint goes on as before. */
  async cancelRotation(conn: ConnectionInfo, r: PendingRotation): Promise<void> {
    await cancelRotation(this.ops(conn), r);
    await this.store.deleteSigningSecret(conn.id, r.newId);
    await this.dropRotations((x) => x.newId === r.newId);
    this.changed.fire(conn.id);
  }

  dispose(): void {
    this.storeChanged.dispose();
    this.changed.dispose();
  }
}
