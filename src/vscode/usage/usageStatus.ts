/**
 * The status bar item: today's tokens and estimated cost across both chats (and whatever else
 * records usage), read from the usage log, so a reload keeps the day's figures. It follows the
 * recorder and opens the usage view.
 */
import * as vscode from 'vscode';
import { Commands } from '../contributions';
import { errorText, logError } from '../log';
import { compactCount, dollars, statusText, todayTotals, type TodayTotals } from './todayTotals';
import type { UsageRecorder } from './usageRecorder';
import { groupDigits } from '../../text/format';

/** Records arrive in bursts (a reply's resends): one read of the log per burst. */
const SETTLE_MS = 150;

export class UsageStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('aoaiWorkbench.usage', vscode.StatusBarAlignment.Right, 100);
  private readonly subs: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;
  private midnight: NodeJS.Timeout | undefined;
  private current: Promise<void> = Promise.resolve();
  private totals: TodayTotals | undefined;

  constructor(private readonly recorder: UsageRecorder) {
    this.item.name = vscode.l10n.t('Azure OpenAI usage today');
    this.item.command = Commands.showUsage;
    this.subs = [recorder.onDidChange(() => this.schedule())];
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), SETTLE_MS);
  }

  /** Reads today's figures from the log and shows them (hidden on a day without requests). */
  refresh(): Promise<void> {
    this.current = this.current.then(async () => {
      try {
        this.render(todayTotals(await this.recorder.summarize()));
      } catch (err) {
        logError(`Could not read today's usage for the status bar: ${errorText(err)}`);
      }
    });
    return this.current;
  }

  private render(t: TodayTotals): void {
    this.totals = t;
    // A new day starts from zero without a request to wake it.
    clearTimeout(this.midnight);
    const next = new Date();
    next.setHours(24, 0, 1, 0);
    this.midnight = setTimeout(() => void this.refresh(), next.getTime() - Date.now());
    if (!t.requests) {
      this.item.hide();
      return;
    }
    this.item.text = `$(pulse) ${statusText(t)}`;
    const cost = t.cost === undefined ? vscode.l10n.t('no price known for these models') : vscode.l10n.t('{0} (estimate)', dollars(t.cost));
    const requests = groupDigits(t.requests);
    // One paragraph each.
    const lines = [
      `**${vscode.l10n.t('Azure OpenAI usage today')}**`,
      t.unpriced ? vscode.l10n.t('{0} requests, {1} of them without a price (tokens only)', requests, t.unpriced) : vscode.l10n.t('{0} requests', requests),
      vscode.l10n.t('Tokens: {0} in, {1} out', groupDigits(t.tokensIn), groupDigits(t.tokensOut)),
      vscode.l10n.t('Estimated cost: {0}', cost),
      vscode.l10n.t('Click to show usage per deployment.'),
    ];
    this.item.tooltip = new vscode.MarkdownString(lines.join('\n\n'));
    const tokens = compactCount(t.tokensIn + t.tokensOut);
    const label =
      t.cost === undefined
        ? vscode.l10n.t('Azure OpenAI usage today: {0} tokens in {1} requests. Show usage.', tokens, t.requests)
        : vscode.l10n.t('Azure OpenAI usage today: {0} tokens in {1} requests, estimated cost {2}. Show usage.', tokens, t.requests, dollars(t.cost));
    this.item.accessibilityInformation = { label };
    this.item.show();
  }

  /** Today's totals as last shown, for tests. */
  get today(): TodayTotals | undefined {
    return this.totals;
  }

  /** The status bar item's text, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** The tooltip's Markdown, for tests. */
  get tooltip(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.midnight);
    this.subs.forEach((d) => d.dispose());
    this.item.dispose();
  }
}
