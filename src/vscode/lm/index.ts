/**
 * Wires the language model provider: registers the `azure-openai` vendor (cheap: nothing is
 * listed or loaded until VS Code asks), and keeps its models in step with the connections and
 * the deployment catalog (which follows keys and sign-in, and which the sidebar refreshes).
 */
import * as vscode from 'vscode';
import type { RequestReport } from '../../chat/engine/report';
import type { AuthManager } from '../auth/authManager';
import type { ClientCache } from '../connections/clients';
import type { ConnectionCatalog } from '../connections/connectionCatalog';
import type { ConnectionStore } from '../connections/connectionStore';
import { LanguageModelVendor } from '../contributions';
import { AzureOpenAIChatProvider } from './provider';
import { loadTokenizer } from '../bundles';

export class LanguageModels implements vscode.Disposable {
  readonly provider: AzureOpenAIChatProvider;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    store: ConnectionStore,
    auth: AuthManager,
    clients: ClientCache,
    catalog: ConnectionCatalog,
    onReport: (report: RequestReport) => void,
    storage?: vscode.Uri,
  ) {
    this.provider = new AzureOpenAIChatProvider({
      store,
      auth,
      clients,
      catalog,
      onReport,
      storage,
      // The o200k tables are megabytes: their own bundle, loaded on the first count.
      loadCounter: () => loadTokenizer().createO200kCounter(),
    });
    this.disposables.push(
      this.provider,
      vscode.lm.registerLanguageModelChatProvider(LanguageModelVendor.vendor, this.provider),
      // A connection added has no list yet; every list that arrives, fails or is dropped (a
      // Refresh, a new key, sign-in changed) comes through the catalog.
      store.onDidChange(() => this.provider.modelsChanged()),
      catalog.onDidChange(() => this.provider.modelsChanged()),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
