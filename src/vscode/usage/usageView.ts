/**
 * The usage view: one webview panel over the usage log, through the shared panel host (every
 * message from the page validated). It listens to the recorder and sends the page a fresh
 * summary when a record arrives; the filters are the host's (they decide what is summed), the
 * period and the chart's measure the page's own. Export as CSV writes where the user chooses.
 * The headroom's limits come from the deployment catalog (Resource Manager's rate limits, when the
 * connection lists through it): read as they stand, listed once when a connection has none yet.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { UsageSummary } from '../../usage/aggregate';
import type { DeploymentLimits } from '../../webview/usage/headroom';
import { parseUsageViewMessage, type UsageFilterChoice, type UsageHostMessage, type UsageViewMessage } from '../../webview/usage/protocol';
import { loadMarkup, loadUsage } from '../bundles';
import type { ConnectionCatalog } from '../connections/connectionCatalog';
import type { ConnectionStore } from '../connections/connectionStore';
import { plainLine } from '../plainText';
import { Views } from '../contributions';
import { errorText } from '../log';
import { PanelHost } from '../webview/panelHost';
import { webviewHtml } from '../webviewHtml';
import type { UsageRecorder } from './usageRecorder';

/** A burst of records (a reply's resends, both chats at once) redraws the page once. */
const SETTLE_MS = 200;

export class UsageView implements vscode.Disposable {
  private host: PanelHost<UsageHostMessage, UsageViewMessage> | undefined;
  private filter: UsageFilterChoice = { connection: '', source: '' };
  private timer: NodeJS.Timeout | undefined;
  private readonly posted = new vscode.EventEmitter<UsageHostMessage>();
  /** Every message sent to the page (tests watch this). */
  readonly onDidPost = this.posted.event;
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly recorder: UsageRecorder,
    private readonly connections: Pick<ConnectionStore, 'get'>,
    private readonly catalog: Pick<ConnectionCatalog, 'state' | 'load' | 'onDidChange'>,
  ) {
    this.subs = [this.posted, recorder.onDidChange(() => this.host && this.schedule()), catalog.onDidChange(() => this.host && this.schedule())];
  }

  get isOpen(): boolean {
    return !!this.host;
  }

  /** The page's HTML (tests check its CSP). */
  get html(): string | undefined {
    return this.host?.panel.webview.html;
  }

  /** Opens the view, or brings it to the front. */
  show(): void {
    if (this.host) {
      this.host.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(Views.usage, vscode.l10n.t('Azure OpenAI Usage'), vscode.ViewColumn.Active, { retainContextWhenHidden: true });
    this.host = new PanelHost<UsageHostMessage, UsageViewMessage>(
      panel,
      this.extensionUri,
      {
        label: 'the usage view',
        html: (webview) => webviewHtml(webview, this.extensionUri, { title: 'Usage', style: 'usage.css', script: 'usage.js', body: loadMarkup().usageBodyHtml() }),
        parse: parseUsageViewMessage,
        onReady: () => this.send(),
        onMessage: (msg) => this.handle(msg),
        onPost: (msg) => this.posted.fire(msg),
      },
      () => {
        clearTimeout(this.timer);
        this.host = undefined;
      },
    );
  }

  /** Entry point for what the page sends (tests call it as the page would). */
  receive(raw: unknown): Promise<void> {
    return this.host?.receive(raw) ?? Promise.resolve();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.send(), SETTLE_MS);
  }

  private async handle(msg: Exclude<UsageViewMessage, { type: 'ready' }>): Promise<void> {
    switch (msg.type) {
      case 'filter':
        this.filter = msg.filter;
        return this.send();
      case 'exportCsv':
        return this.exportCsv();
      case 'editPrices':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'aoaiWorkbench.usage.prices');
        return;
    }
  }

  /** Reads the log with the filters and sends the page what it shows. */
  private async send(): Promise<void> {
    try {
      const summary = await this.summarize();
      this.host?.post({ type: 'summary', summary, filter: this.filter, limits: this.limitsFor(summary) });
    } catch (err) {
      const text = vscode.l10n.t(
        'The usage log could not be read ({0}). Close the view and open it again; if it keeps failing, see the log (Azure OpenAI: Show Log).',
        errorText(err),
      );
      this.host?.post({ type: 'error', text });
    }
  }

  /**
   * The rate limits Resource Manager gave for the deployments with headroom. A connection whose
   * list was never read is listed now (the catalog's change event sends the page the limits).
   */
  private limitsFor(summary: UsageSummary): DeploymentLimits[] {
    const out: DeploymentLimits[] = [];
    for (const connectionId of new Set(summary.deployments.filter((d) => d.headroom).map((d) => d.connectionId))) {
      const conn = this.connections.get(connectionId);
      const list = conn && this.catalog.state(conn);
      if (conn && list?.status === 'idle') void this.catalog.load(conn).catch(() => undefined);
      if (list?.status !== 'loaded') continue;
      for (const { name, rateLimits: r } of list.items) {
        if (r) out.push({ connectionId, deployment: name, requestsPerMinute: r.requestsPerMinute, tokensPerMinute: r.tokensPerMinute });
      }
    }
    return out;
  }

  private summarize() {
    const { connection, source } = this.filter;
    return this.recorder.summarize({ filter: { connections: connection ? [connection] : undefined, sources: source ? [source] : undefined } });
  }

  /** Export as CSV: to `to` when given (tests), else where the save dialog says. */
  async exportCsv(to?: vscode.Uri): Promise<void> {
    const summary = await this.summarize();
    const { dayLabel, usageTableCsv } = loadUsage();
    const home = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
    const target = to ?? await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export Usage as CSV'),
      defaultUri: vscode.Uri.joinPath(home, `azure-openai-usage-${dayLabel(Date.now())}.csv`),
      filters: { [vscode.l10n.t('CSV files')]: ['csv'] },
    });
    if (!target) return;
    try {
      await vscode.workspace.fs.writeFile(target, Buffer.from(usageTableCsv(summary), 'utf8'));
    } catch (err) {
      throw new Error(vscode.l10n.t('Could not write {0} ({1}). Choose another folder.', target.fsPath || target.toString(), errorText(err)));
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('Usage exported to {0} (costs are estimates).', plainLine(target.fsPath, 300)));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.host?.dispose();
    this.subs.forEach((d) => d.dispose());
  }
}
