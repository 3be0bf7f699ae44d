/**
 * The compare panel: its page talks to it through the shared panel host (every message
 * validated), its rounds go through the compare runner (src/chat/compare), and every request's
 * report goes to the usage log as a compare one. Holds the UI, not the logic.
 */
import * as vscode from 'vscode';
import type { ColumnResult } from '../../chat/compare/column';
import type { CompareTarget } from '../../chat/compare/compareRun';
import { comparePrompt, conversationOf, type CompareInput } from '../../chat/compare/exchange';
import type { CompareRound } from '../../chat/compare/compareRun';
import type { RequestReport } from '../../chat/engine/report';
import { modelProfile } from '../../chat/modelProfile';
import { isSafeLink } from '../../webview/chat/protocol';
import { parseCompareViewMessage, type ColumnHead, type CompareHostMessage, type CompareSettings, type CompareViewMessage } from '../../webview/compare/protocol';
import { loadMarkup, loadNetwork } from '../bundles';
import { Composer } from '../chat/composer';
import { insertCode } from '../chat/insertCode';
import { Commands, Views } from '../contributions';
import { loadTrace } from '../layerBundles';
import { logInfo } from '../log';
import { PanelHost } from '../webview/panelHost';
import { webviewHtml } from '../webviewHtml';

/** One column: where it runs, and what the page and Continue in Chat need. */
export interface CompareColumn {
  head: ColumnHead;
  target: CompareTarget;
  connectionLabel: string;
  apiVersion?: string;
}

export interface CompareDeps {
  extensionUri: vscode.Uri;
  settings: CompareSettings;
  /** The usage log's recorder (every request, source compare). */
  onReport?: (report: RequestReport) => void;
  /** Global storage: each column's request is traced there (Show Trace on the column); none, no traces. */
  storage?: vscode.Uri;
  /** Saves a conversation and opens it in a chat panel. */
  openConversation: (conversation: ReturnType<typeof conversationOf>) => Promise<void>;
}

export class ComparePanel implements vscode.Disposable {
  private readonly host: PanelHost<CompareHostMessage, CompareViewMessage>;
  private run: AbortController | undefined;
  private running: Promise<void> | undefined;
  private last: { input: CompareInput; columns: Map<string, ColumnResult>; rounds: CompareRound[] } | undefined;
  private readonly posted = new vscode.EventEmitter<CompareHostMessage>();
  /** Every message sent to the page (tests watch this). */
  readonly onDidPost = this.posted.event;
  private readonly composer: Composer;

  static open(columns: CompareColumn[], deps: CompareDeps): ComparePanel {
    const panel = vscode.window.createWebviewPanel(Views.compare, vscode.l10n.t('Compare deployments'), vscode.ViewColumn.Active, { retainContextWhenHidden: true, enableFindWidget: true });
    return new ComparePanel(panel, columns, deps);
  }

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly columns: CompareColumn[],
    private readonly deps: CompareDeps,
  ) {
    panel.title = vscode.l10n.t('Compare: {0}', columns.map((c) => c.target.deployment).join(' · '));
    this.host = new PanelHost(panel, deps.extensionUri, {
      label: 'the compare view',
      html: (webview) =>
        webviewHtml(webview, deps.extensionUri, {
          title: vscode.l10n.t('Compare deployments'),
          style: 'compare.css',
          script: 'pages.js',
          page: 'compare',
          body: loadMarkup().compareBodyHtml(),
        }),
      parse: parseCompareViewMessage,
      onReady: () => this.ready(),
      onMessage: (msg) => this.handle(msg),
      onPost: (msg) => this.posted.fire(msg),
    }, () => this.dispose());
    const readsImages = columns.every((c) => modelProfile(c.target.model || c.target.deployment).imageInput);
    this.composer = new Composer(
      (msg) => msg.type === 'attachments' && this.post({ type: 'attachments', items: msg.items.map(({ id, kind, name }) => ({ id, kind, name })), imageInput: readsImages }),
      () => Promise.resolve({ name: columns.map((c) => c.target.deployment).join(', '), imageInput: readsImages }),
    );
  }

  /** Resolves when no compare is running. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  receive(raw: unknown): Promise<void> {
    return this.host.receive(raw);
  }

  private post(msg: CompareHostMessage): void {
    this.host.post(msg);
  }

  private async ready(): Promise<void> {
    this.post({ type: 'init', columns: this.columns.map((c) => c.head), settings: this.deps.settings, busy: !!this.run });
    await this.composer.show();
  }

  private async handle(msg: Exclude<CompareViewMessage, { type: 'ready' }>): Promise<void> {
    switch (msg.type) {
      case 'send': {
        const { text, settings, runs } = msg;
        return this.start({ text, ...settings, attachments: this.composer.take() }, runs);
      }
      case 'stop':
        return this.run?.abort();
      case 'export':
        return void (await this.export());
      case 'continueInChat':
        return this.continueInChat(msg.id);
      case 'showTrace':
        return void (await vscode.commands.executeCommand(Commands.showTrace, this.last?.columns.get(msg.id)?.traceId));
      case 'attach':
        return this.composer.pick(msg.kind);
      case 'removeAttachment':
        return this.composer.remove(msg.id);
      case 'copyCode':
        return vscode.env.clipboard.writeText(msg.code);
      case 'insertCode':
        return insertCode(msg.code);
      case 'openLink':
        if (isSafeLink(msg.href)) await vscode.env.openExternal(vscode.Uri.parse(msg.href, true));
        else logInfo(`Blocked a link from a compare reply: ${msg.href.slice(0, 100)}`);
        return;
    }
  }

  /** Sends the prompt to every column, `runs` rounds one after another. */
  start(input: CompareInput, runs = 1): Promise<void> {
    if (this.run) throw new Error(vscode.l10n.t('A compare is already running. Stop it first.'));
    const run = (this.run = new AbortController());
    const last = (this.last = { input, columns: new Map<string, ColumnResult>(), rounds: [] as CompareRound[] });
    this.post({ type: 'busy', busy: true });
    const targets = this.columns.map((c) => c.target);
    const { repeatCompare, summarize } = loadNetwork();
    const storage = this.deps.storage;
    this.running = (async () => {
      try {
        await repeatCompare(targets, comparePrompt(input), runs, {
          signal: run.signal,
          onReport: this.deps.onReport,
          observe: storage && ((t) => loadTrace().tracer(storage, 'compare', t.deployment, t.client.endpoint)),
          onText: (id, text) => this.post({ type: 'delta', id, text }),
          onColumn: (column) => {
            last.columns.set(column.id, column);
            this.post({ type: 'column', column });
          },
          onRound: (round) => {
            last.rounds.push(round);
            this.post({ type: 'roundEnded' });
            if (runs > 1) this.post({ type: 'summary', summaries: summarize(targets.map((t) => t.id), last.rounds) });
            if (last.rounds.length < runs && !run.signal.aborted) this.post({ type: 'roundStarted', round: last.rounds.length + 1, of: runs });
          },
        });
      } finally {
        this.run = undefined;
        this.running = undefined;
        this.post({ type: 'busy', busy: false });
      }
    })();
    this.post({ type: 'roundStarted', round: 1, of: runs });
    return this.running;
  }

  /** The table and the replies as a Markdown document beside the panel. */
  async export(): Promise<vscode.TextDocument> {
    const last = this.last;
    if (!last || !last.columns.size) throw new Error(vscode.l10n.t('Nothing to export yet: send a prompt first.'));
    const { compareMarkdown, summarize } = loadNetwork();
    const summaries = summarize(this.columns.map((c) => c.head.id), last.rounds);
    const columns = this.columns.flatMap((c, i) => {
      const column = last.columns.get(c.head.id);
      return column ? [{ label: c.head.label, column, summary: summaries[i] }] : [];
    });
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: compareMarkdown(last.input.text, columns) });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
    return doc;
  }

  /** Opens the column's exchange as a chat panel. */
  async continueInChat(id: string): Promise<void> {
    const c = this.columns.find((x) => x.head.id === id);
    const column = this.last?.columns.get(id);
    if (!c || !column || !this.last) throw new Error(vscode.l10n.t('That column has no reply to continue from yet.'));
    const conversation = conversationOf(this.last.input, column, {
      connectionId: c.target.connection ?? '',
      connectionLabel: c.connectionLabel,
      deployment: c.target.deployment,
      params: { apiVersion: c.apiVersion },
    });
    await this.deps.openConversation(conversation);
  }

  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.run?.abort();
    this.host.dispose();
    this.posted.dispose();
  }
}
