/**
 * The owner of connections and their secrets: the non-secret parts in the
 * `aoaiWorkbench.connections` setting, the key in SecretStorage only. Signing secrets of webhook
 * endpoints created here live in SecretStorage too. Every change fires an event; the tree, the
 * client cache and the listener listen.
 */
import * as vscode from 'vscode';
import type { TokenSourceKind } from '../auth/authManager';
import { registerSecret } from '../log';
import { onDidChangeSettings, setting, updateSetting } from '../settings';

export type AuthKind = 'apiKey' | 'entraId';

export interface ConnectionInfo {
  id: string;
  label: string;
  /** Normalised resource address (no trailing slash, no /openai suffix). */
  endpoint: string;
  auth: AuthKind;
  /** Entra ID: where tokens come from (default: VS Code's Microsoft account). */
  tokenSource?: TokenSourceKind;
  /** Entra ID: the tenant to sign in to (default: the account's home tenant). */
  tenantId?: string;
  /** The account's Azure Resource Manager id, when known: deployments are then listed from ARM. */
  armId?: string;
  apiVersion?: string;
  /** The local emulator started from VS Code: removed when it stops. */
  local?: boolean;
}

/** A key or a signing secret was stored or deleted. */
export type SecretChange = { kind: 'apiKey'; connectionId: string } | { kind: 'signingSecret'; connectionId: string; endpointId: string; stored: boolean };

const keyName = (id: string) => `aoaiWorkbench.apiKey.${id}`;
const signingSecretName = (connectionId: string, endpointId: string) => `aoaiWorkbench.signingSecret.${connectionId}.${endpointId}`;

export class ConnectionStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The list of connections (or one of them) changed. */
  readonly onDidChange = this.changed.event;
  private readonly secretChanged = new vscode.EventEmitter<SecretChange>();
  readonly onDidChangeSecret = this.secretChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Ids (connection:endpoint) whose signing secret is known to be in SecretStorage. */
  private readonly signingSecretIds = new Set<string>();

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscriptions.push(onDidChangeSettings(['connections'], () => this.changed.fire()));
  }

  list(): ConnectionInfo[] {
    const raw: unknown = setting('connections');
    if (!Array.isArray(raw)) return [];
    // Entries edited by hand may be broken: keep only the usable ones.
    const usable = (c: ConnectionInfo) =>
      !!c && typeof c === 'object' && typeof c.id === 'string' && typeof c.endpoint === 'string' && (c.auth === 'apiKey' || c.auth === 'entraId');
    return (raw as ConnectionInfo[]).filter(usable).map((c) => ({ ...c, label: c.label || c.endpoint }));
  }

  get(id: string): ConnectionInfo | undefined {
    return this.list().find((c) => c.id === id);
  }

  findByEndpoint(endpoint: string): ConnectionInfo | undefined {
    return this.list().find((c) => c.endpoint.toLowerCase() === endpoint.toLowerCase());
  }

  private async write(list: ConnectionInfo[]): Promise<void> {
    await updateSetting('connections', list);
    this.changed.fire();
  }

  /** Adds or replaces a connection; the key goes to SecretStorage before the setting is written. */
  async save(info: ConnectionInfo, apiKey?: string): Promise<void> {
    const keyChanged = apiKey !== undefined && apiKey !== (await this.secrets.get(keyName(info.id)));
    if (apiKey !== undefined) {
      registerSecret(apiKey);
      await this.secrets.store(keyName(info.id), apiKey);
    }
    const list = this.list();
    const i = list.findIndex((c) => c.id === info.id);
    if (i === -1) list.push(info);
    else list[i] = info;
    await this.write(list);
    if (keyChanged && i !== -1) this.secretChanged.fire({ kind: 'apiKey', connectionId: info.id });
  }

  /**
   * Removes the connection and all it kept in SecretStorage: its key and the signing secrets of its
   * webhook endpoints (its rotations in progress are forgotten by WebhookEndpoints on the change).
   */
  async remove(id: string): Promise<void> {
    await this.write(this.list().filter((c) => c.id !== id));
    await this.secrets.delete(keyName(id));
    const prefix = signingSecretName(id, '');
    const known = [...this.signingSecretIds].filter((x) => x.startsWith(`${id}:`)).map((x) => signingSecretName(id, x.slice(id.length + 1)));
    const stored = await Promise.resolve(this.secrets.keys()).catch(() => []);
    // Endpoint ids hold no dot: `<prefix>x.y` belongs to a connection whose id is `<id>.x`.
    const names = new Set([...known, ...stored.filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('.'))]);
    for (const name of names) await this.deleteSigningSecret(id, name.slice(prefix.length));
  }

  async deleteApiKey(id: string): Promise<void> {
    await this.secrets.delete(keyName(id));
    this.secretChanged.fire({ kind: 'apiKey', connectionId: id });
  }

  async apiKey(id: string): Promise<string | undefined> {
    const key = await this.secrets.get(keyName(id));
    registerSecret(key);
    return key;
  }

  async storeSigningSecret(connectionId: string, endpointId: string, secret: string): Promise<void> {
    registerSecret(secret);
    await this.secrets.store(signingSecretName(connectionId, endpointId), secret);
    this.noteSigningSecret(connectionId, endpointId, true);
  }

  async signingSecret(connectionId: string, endpointId: string): Promise<string | undefined> {
    const s = await this.secrets.get(signingSecretName(connectionId, endpointId));
    registerSecret(s);
    this.noteSigningSecret(connectionId, endpointId, !!s, false);
    return s;
  }

  async deleteSigningSecret(connectionId: string, endpointId: string): Promise<void> {
    await this.secrets.delete(signingSecretName(connectionId, endpointId));
    this.noteSigningSecret(connectionId, endpointId, false);
  }

  /** Whether the endpoint's signing secret is stored, as far as reads and writes so far tell. */
  hasSigningSecret(connectionId: string, endpointId: string): boolean {
    return this.signingSecretIds.has(`${connectionId}:${endpointId}`);
  }

  private noteSigningSecret(connectionId: string, endpointId: string, stored: boolean, announce = true): void {
    const id = `${connectionId}:${endpointId}`;
    if (stored === this.signingSecretIds.has(id)) return;
    if (stored) this.signingSecretIds.add(id);
    else this.signingSecretIds.delete(id);
    if (announce) this.secretChanged.fire({ kind: 'signingSecret', connectionId, endpointId, stored });
  }

  dispose(): void {
    this.changed.dispose();
    this.secretChanged.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}

export function newConnectionId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
