/**
 * Wires the language model provider: registers the `azure-openai` vendor (cheap: nothing is
 * listed or loaded until VS Code asks), and keeps its models in step with the owners of
 * connections, keys, sign-in and the deployment lists the sidebar loads.
 */
import * as vscode from 'vscode';
import type { RequestReport } from '../../chat/engine/report';
import type { Deployment } from '../../service/types';
import type { AuthManager } from '../auth/authManager';
import type { ClientCache } from '../connections/clients';
import type { ConnectionStore } from '../connections/connectionStore';
import { LanguageModelVendor } from '../contributions';
import type { ResourcesTree } from '../tree/resourcesTree';
import { AzureOpenAIChatProvider } from './provider';
import { loadTokenizer } from '../bundles';

export class LanguageModels implements vscode.Disposable {
  readonly provider: AzureOpenAIChatProvider;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(store: ConnectionStore, auth: AuthManager, clients: ClientCache, tree: ResourcesTree, onReport: (report: RequestReport) => void) {
    this.provider = new AzureOpenAIChatProvider({
      store,
      auth,
      clients,
      onReport,
      // The o200k tables are megabytes: their own bundle, loaded on the first count.
      loadCounter: () => loadTokenizer().createO200kCounter(),
    });
    this.disposables.push(
      this.provider,
      vscode.lm.registerLanguageModelChatProvider(LanguageModelVendor.vendor, this.provider),
      store.onDidChange(() => this.provider.invalidate()),
      store.onDidChangeSecret((e) => e.kind === 'apiKey' && this.provider.invalidate(e.connectionId)),
      // Signed in or out, account or cloud changed (the auth manager follows VS Code's sessions).
      auth.onDidChange(() => this.provider.invalidate()),
      tree.onDidChangeTreeData((node) => {
        if (node?.type === 'group' && node.kind === 'deployments' && node.state.status === 'loaded') {
          this.provider.deploymentsListed(node.connection.id, node.state.items as Deployment[]);
        }
      }),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
