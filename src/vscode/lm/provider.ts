/**
 * Deployments in VS Code's own chat: the language model chat provider of the `azure-openai`
 * vendor. Thin: it lists what the core's catalog offers for every connection, turns VS Code's
 * parts into neutral messages and back, and reports usage. Requests, mapping and counting are
 * the core's (src/chat/engine, the runner both chats share; src/chat/lm).
 */
import * as vscode from 'vscode';
import { VSCODE_CHAT_RUN } from '../../chat/engine/options';
import type { RequestReport } from '../../chat/engine/report';
import type { RunRequest } from '../../chat/engine/runner';
import { lmModelEntries, type LmModelEntry } from '../../chat/lm/catalog';
import { readModelOptions } from '../../chat/lm/modelOptions';
import type { TokenCounter } from '../../chat/lm/tokenCount';
import type { AuthManager } from '../auth/authManager';
import type { ClientCache } from '../connections/clients';
import type { ConnectionCatalog } from '../connections/connectionCatalog';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';
import { loadNetwork, loadTokenizer } from '../bundles';
import { LanguageModelVendor } from '../contributions';
import { loadTrace } from '../layerBundles';
import { errorText, logError, logInfo } from '../log';
import { toLmMessage, toLmToolMode, toLmTools } from './toNeutral';

/** What the provider hands VS Code for each deployment (VS Code hands it back with each request). */
export type AzureModelInformation = vscode.LanguageModelChatInformation & Pick<LmModelEntry, 'connectionId' | 'deployment' | 'model'>;

export interface ProviderDeps {
  store: ConnectionStore;
  auth: AuthManager;
  clients: ClientCache;
  /** The deployment lists, shared with the sidebar and the chat panel (VS Code asks often: they are kept a minute). */
  catalog: ConnectionCatalog;
  /** Where each request's usage report goes (the usage log). */
  onReport: (report: RequestReport) => void;
  /** Loads the tokenizer bundle on the first count. */
  loadCounter: () => TokenCounter;
  /** Global storage: each request is traced there (src/vscode/trace), its tool runs timed across requests. */
  storage?: vscode.Uri;
}

export class AzureOpenAIChatProvider implements vscode.LanguageModelChatProvider<AzureModelInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private counter?: TokenCounter;

  constructor(private readonly deps: ProviderDeps) {}

  /** Connections or their deployment lists changed: VS Code asks for the models again. */
  modelsChanged(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<AzureModelInformation[]> {
    const lists = await Promise.all(
      this.deps.store.list().map(async (conn) => {
        if (options.silent && !(await this.signedInSilently(conn))) return [];
        try {
          // An entry has exactly the fields VS Code reads, and the three it hands back with each request.
          return lmModelEntries(conn, await this.deps.catalog.chatDeployments(conn));
        } catch (err) {
          // One connection's trouble (network, expired key) must not hide the others' models.
          if (!token.isCancellationRequested) logError(`Deployments of ${conn.label} for VS Code's chat: ${errorText(err)}`);
          return [];
        }
      }),
    );
    return lists.flat();
  }

  /**
   * True when the connection needs no prompt: a key, the Azure CLI or DefaultAzureCredential, or
   * a VS Code Microsoft account that already holds a session for the resource.
   */
  private async signedInSilently(conn: ConnectionInfo): Promise<boolean> {
    if (conn.auth !== 'entraId' || (conn.tokenSource ?? 'vscode') !== 'vscode') return true;
    try {
      const cloud = this.deps.auth.cloud();
      const tenant = conn.tenantId ? [`VSCODE_TENANT:${conn.tenantId}`] : [];
      const scopes = conn.armId ? [cloud.managementScope] : cloud.dataPlaneScopes.slice(0, 1);
      return !!(await vscode.authentication.getSession(cloud.vscodeProviderId, [...scopes, ...tenant], { silent: true }));
    } catch {
      return false;
    }
  }

  async provideLanguageModelChatResponse(
    model: AzureModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const conn = this.deps.store.get(model.connectionId);
    if (!conn) {
      const gone = vscode.l10n.t('The connection of "{0}" was removed. Pick another model, or add the connection again (Azure OpenAI: Add Connection).', model.name);
      throw vscode.LanguageModelError.NotFound(gone);
    }
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const started = Date.now();
    try {
      if (token.isCancellationRequested) return;
      const client = await this.deps.clients.get(conn);
      const request: RunRequest = {
        client,
        connection: conn.id,
        deployment: model.deployment,
        model: model.model,
        messages: messages.map(toLmMessage),
        tools: toLmTools(options.tools),
        toolMode: toLmToolMode(options.toolMode),
        sampling: readModelOptions(options.modelOptions),
        apiVersion: conn.apiVersion,
        signal: abort.signal,
        onReport: this.deps.onReport,
        onText: (text) => progress.report(new vscode.LanguageModelTextPart(text)),
        onToolCall: (call) => progress.report(new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input)),
      };
      const traced = this.deps.storage && loadTrace().tracedLmRequest(this.deps.storage, request);
      const result = await loadNetwork()
        .runChat(traced ? traced.observe(request) : request, VSCODE_CHAT_RUN)
        .then(
          (r) => (traced?.end({ result: r }), r),
          (error: unknown) => (traced?.end({ error }), Promise.reject(error)),
        );
      const via = result.api === 'responses' ? ', Responses API' : '';
      const how = `${result.stopped ? 'stopped' : (result.finishReason ?? 'ended')}, ${Date.now() - started} ms${result.model ? `, ${result.model}` : ''}${via}`;
      const u = result.usage;
      logInfo(`VS Code chat request to ${model.name}: ${u ? `${u.prompt_tokens} prompt + ${u.completion_tokens} completion tokens` : 'no usage reported'}; ${how}.`);
    } catch (err) {
      const e = toLanguageModelError(err);
      logError(`VS Code chat request to ${model.name}: ${e.message}`);
      throw e;
    } finally {
      cancelled.dispose();
    }
  }

  async provideTokenCount(_model: AzureModelInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    this.counter ??= this.deps.loadCounter();
    return typeof text === 'string' ? this.counter.text(text) : this.counter.message(toLmMessage(text));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * The consumer gets the core's message (what happened, what to do), classified where VS Code has
 * a code for it. Recognised by shape: the service's errors may come from another bundle.
 */
function toLanguageModelError(err: unknown): Error {
  const message = errorText(err);
  const e = (err ?? {}) as { name?: string; status?: number; code?: string };
  if (e.name === 'ReplyFilteredError' || (e.name === 'ServiceError' && e.code === 'content_filter')) return vscode.LanguageModelError.Blocked(message);
  if (e.name === 'ServiceError' && (e.status === 401 || e.status === 403)) return vscode.LanguageModelError.NoPermissions(message);
  if (e.name === 'ServiceError' && e.status === 404) return vscode.LanguageModelError.NotFound(message);
  return new Error(message);
}

/**
 * Registers the `azure-openai` vendor (cheap: nothing is listed or loaded until VS Code asks) and
 * keeps its models in step with the connections and the deployment catalog (which follows keys and
 * sign-in, and which the sidebar refreshes).
 */
export function registerLanguageModels(deps: Omit<ProviderDeps, 'loadCounter'>): vscode.Disposable {
  // The o200k tables are megabytes: their own bundle, loaded on the first count.
  const provider = new AzureOpenAIChatProvider({ ...deps, loadCounter: () => loadTokenizer().createO200kCounter() });
  return vscode.Disposable.from(
    provider,
    vscode.lm.registerLanguageModelChatProvider(LanguageModelVendor.vendor, provider),
    // A connection added has no list yet; every list that arrives, fails or is dropped (a
    // Refresh, a new key, sign-in changed) comes through the catalog.
    deps.store.onDidChange(() => provider.modelsChanged()),
    deps.catalog.onDidChange(() => provider.modelsChanged()),
  );
}
