/**
 * The window's deployment catalog, beside the client cache: the core's catalog listing through
 * the clients, kept in step with the connections, their keys and sign-in. The sidebar, the chat
 * panel and VS Code's model picker all read it, so one Refresh reaches all three.
 */
import type * as vscode from 'vscode';
import { isChatDeployment } from '../../chat/lm/catalog';
import { DeploymentCatalog } from '../../service/deploymentCatalog';
import type { AuthManager } from '../auth/authManager';
import type { ClientCache } from './clients';
import type { ConnectionInfo, ConnectionStore } from './connectionStore';

export class ConnectionCatalog extends DeploymentCatalog<ConnectionInfo> implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];

  constructor(store: ConnectionStore, auth: AuthManager, clients: ClientCache) {
    super({ connections: () => store.list(), list: (conn) => clients.listDeployments(conn), canChat: isChatDeployment });
    this.subscriptions = [
      store.onDidChange(() => this.prune()),
      store.onDidChangeSecret((e) => e.kind === 'apiKey' && this.refresh(e.connectionId)),
      // Signed in or out, account or cloud changed: what a token may list may have changed too.
      auth.onDidChange(() => this.refresh()),
    ];
  }

  override dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    super.dispose();
  }
}
