/**
 * Connections: the non-secret parts in the `aoaiWorkbench.connections` setting, the key in
 * SecretStorage only. Signing secrets of webhook endpoints created here live in SecretStorage too.
 */
import * as vscode from 'vscode';
import type { TokenSourceKind } from '../auth/authManager';
import { registerSecret } from '../log';

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

const SETTING = 'connections';
const SECTION = 'aoaiWorkbench';
const keyName = (id: string) => `aoaiWorkbench.apiKey.${id}`;
const signingSecretName = (connectionId: string, endpointId: string) => `aoaiWorkbench.signingSecret.${connectionId}.${endpointId}`;

export class ConnectionStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.${SETTING}`)) this.changed.fire();
      }),
    );
  }

  list(): ConnectionInfo[] {
    const raw = vscode.workspace.getConfiguration(SECTION).get<unknown>(SETTING, []);
    if (!Array.isArray(raw)) return [];
    // Entries edited by hand may be broken: keep only the usable ones.
    return raw.filter((c): c is ConnectionInfo => !!c && typeof c === 'object' && typeof c.id === 'string' && typeof c.endpoint === 'string' && (c.auth === 'apiKey' || c.auth === 'entraId')).map((c) => ({ ...c, label: c.label || c.endpoint }));
  }

  get(id: string): ConnectionInfo | undefined {
    return this.list().find((c) => c.id === id);
  }

  findByEndpoint(endpoint: string): ConnectionInfo | undefined {
    return this.list().find((c) => c.endpoint.toLowerCase() === endpoint.toLowerCase());
  }

  private async write(list: ConnectionInfo[]): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(SETTING, list, vscode.ConfigurationTarget.Global);
    this.changed.fire();
  }

  /** Adds or replaces a connection; the key goes to SecretStorage before the setting is written. */
  async save(info: ConnectionInfo, apiKey?: string): Promise<void> {
    if (apiKey !== undefined) {
      registerSecret(apiKey);
      await this.secrets.store(keyName(info.id), apiKey);
    }
    const list = this.list();
    const i = list.findIndex((c) => c.id === info.id);
    if (i === -1) list.push(info);
    else list[i] = info;
    await this.write(list);
  }

  async remove(id: string): Promise<void> {
    await this.write(this.list().filter((c) => c.id !== id));
    await this.secrets.delete(keyName(id));
  }

  deleteApiKey(id: string): Thenable<void> {
    return this.secrets.delete(keyName(id));
  }

  async apiKey(id: string): Promise<string | undefined> {
    const key = await this.secrets.get(keyName(id));
    registerSecret(key);
    return key;
  }

  async storeSigningSecret(connectionId: string, endpointId: string, secret: string): Promise<void> {
    registerSecret(secret);
    await this.secrets.store(signingSecretName(connectionId, endpointId), secret);
  }

  async signingSecret(connectionId: string, endpointId: string): Promise<string | undefined> {
    const s = await this.secrets.get(signingSecretName(connectionId, endpointId));
    registerSecret(s);
    return s;
  }

  deleteSigningSecret(connectionId: string, endpointId: string): Thenable<void> {
    return this.secrets.delete(signingSecretName(connectionId, endpointId));
  }

  dispose(): void {
    this.changed.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}

export function newConnectionId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
