/**
 * Notifications for batches and fine-tuning jobs that ended, rationed: a burst of deliveries (a
 * thousand batches finishing at once, or someone replaying signed deliveries with new ids) shows
 * the first few one by one, then one summary, "N more batches ended", with Show, which reveals
 * the rows. Each notification VS Code shows is held until dismissed, on both sides of the
 * window: a thousand of them cost the extension host over 100 MB.
 */
import * as vscode from 'vscode';
import { errorText, logError } from '../log';
import { plainLine } from '../plainText';
import { groupDigits } from '../../text/format';

/** Notifications shown one by one within `WINDOW_MS`; the rest go into a summary. */
export const NOTICE_CAP = 3;
export const WINDOW_MS = 10_000;
/** The most notifications `shown` remembers. */
const SHOWN_KEPT = 20;

export type NoticeKind = 'batches' | 'fineTuning';

const SUMMARY: Record<NoticeKind, (n: number) => string> = {
  batches: (n) =>
    n === 1
      ? vscode.l10n.t('{0} more batch ended (notifications are grouped during a burst).', groupDigits(n))
      : vscode.l10n.t('{0} more batches ended (notifications are grouped during a burst).', groupDigits(n)),
  fineTuning: (n) =>
    n === 1
      ? vscode.l10n.t('{0} more fine-tuning job ended (notifications are grouped during a burst).', groupDigits(n))
      : vscode.l10n.t('{0} more fine-tuning jobs ended (notifications are grouped during a burst).', groupDigits(n)),
};
/** The summary's action: reveals the rows it sums up. */
export const showAction = () => vscode.l10n.t({ message: 'Show', comment: 'reveals the batches or jobs a notification sums up' });

export interface ShownNotice {
  message: string;
  actions: string[];
}

export class JobNotices implements vscode.Disposable {
  /** What was shown, the newest `SHOWN_KEPT`: the host tests read it. */
  readonly shown: ShownNotice[] = [];
  /** When each notification of the current window was shown. */
  private recent: number[] = [];
  /** Endings held for the summary, per kind: how many, and the connection of the latest. */
  private readonly waiting = new Map<NoticeKind, { count: number; connectionId: string }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Reveals a connection's rows of a kind (the Show of a summary). */
    private readonly reveal: (connectionId: string, kind: NoticeKind) => Promise<void>,
  ) {}

  /** Endings counted for the summary, not shown yet. */
  get held(): number {
    let n = 0;
    for (const h of this.waiting.values()) n += h.count;
    return n;
  }

  /** No burst window open: the next ending is shown at once (the host tests wait for it). */
  get quiet(): boolean {
    const now = Date.now();
    return !this.timer && this.recent.every((t) => now - t >= WINDOW_MS);
  }

  /**
   * Shows a notification with its actions and resolves to the one picked; during a burst, counts
   * it into the summary instead and resolves to undefined at once.
   */
  async notify(kind: NoticeKind, connectionId: string, message: string, actions: string[]): Promise<string | undefined> {
    const now = Date.now();
    this.recent = this.recent.filter((t) => now - t < WINDOW_MS);
    if (this.timer || this.recent.length >= NOTICE_CAP) {
      const h = this.waiting.get(kind);
      this.waiting.set(kind, { count: (h?.count ?? 0) + 1, connectionId });
      this.timer ??= setTimeout(() => this.summarize(), WINDOW_MS);
      return undefined;
    }
    return this.show(message, actions);
  }

  /** Shows the summaries: the burst's window has ended. */
  private summarize(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [kind, { count, connectionId }] of this.waiting) {
      const show = showAction();
      void this.show(SUMMARY[kind](count), [show])
        .then((pick) => (pick === show ? this.reveal(connectionId, kind) : undefined))
        .catch((err: unknown) => logError(`Showing the ${kind} a notification summed up: ${errorText(err)}`));
    }
    this.waiting.clear();
  }

  /** Shows a notification outside the rationing (a ringing call: each waits for its answer). */
  async ring(message: string, actions: string[]): Promise<string | undefined> {
    return vscode.window.showInformationMessage(this.remember(message, actions), ...actions);
  }

  private async show(message: string, actions: string[]): Promise<string | undefined> {
    this.recent.push(Date.now());
    return vscode.window.showInformationMessage(this.remember(message, actions), ...actions);
  }

  /** Keeps what is shown; the message goes out as text (its values are a delivery's words: plainText.ts). */
  private remember(message: string, actions: string[]): string {
    const text = plainLine(message, 1000);
    this.shown.push({ message: text, actions });
    if (this.shown.length > SHOWN_KEPT) this.shown.shift();
    return text;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
  }
}
