/**
 * Notifications for batches and fine-tuning jobs that ended, rationed: a burst of deliveries (a
 * thousand batches finishing at once, or someone replaying signed deliveries with new ids) shows
 * the first few one by one, then one summary, "N more batches ended", with Show, which reveals
 * the rows. Each notification VS Code shows is held until dismissed, on both sides of the
 * window: a thousand of them cost the extension host over 100 MB.
 */
import * as vscode from 'vscode';

/** Notifications shown one by one within `WINDOW_MS`; the rest go into a summary. */
export const NOTICE_CAP = 3;
export const WINDOW_MS = 10_000;
/** The most summaries kept in `shown` for tests. */
const SHOWN_KEPT = 20;

export type NoticeKind = 'batches' | 'fineTuning';

const SUMMARY: Record<NoticeKind, (n: number) => string> = {
  batches: (n) => `${n.toLocaleString('en')} more ${n === 1 ? 'batch' : 'batches'} ended (notifications are grouped during a burst).`,
  fineTuning: (n) => `${n.toLocaleString('en')} more fine-tuning ${n === 1 ? 'job' : 'jobs'} ended (notifications are grouped during a burst).`,
};
export const SHOW_ACTION = 'Show';

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
    private readonly now: () => number = Date.now,
  ) {}

  /** Endings counted for the summary, not shown yet. */
  get held(): number {
    let n = 0;
    for (const h of this.waiting.values()) n += h.count;
    return n;
  }

  /**
   * Shows a notification with its actions and resolves to the one picked; during a burst, counts
   * it into the summary instead and resolves to undefined at once.
   */
  async notify(kind: NoticeKind, connectionId: string, message: string, actions: string[]): Promise<string | undefined> {
    const now = this.now();
    this.recent = this.recent.filter((t) => now - t < WINDOW_MS);
    if (this.timer || this.recent.length >= NOTICE_CAP) {
      const h = this.waiting.get(kind);
      this.waiting.set(kind, { count: (h?.count ?? 0) + 1, connectionId });
      this.timer ??= setTimeout(() => this.summarize(), WINDOW_MS);
      return undefined;
    }
    return this.show(message, actions);
  }

  /** Shows the summaries now (the end of the burst's window; tests call it to skip the wait). */
  summarize(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [kind, { count, connectionId }] of this.waiting) {
      void this.show(SUMMARY[kind](count), [SHOW_ACTION]).then((pick) => (pick === SHOW_ACTION ? this.reveal(connectionId, kind) : undefined));
    }
    this.waiting.clear();
  }

  private async show(message: string, actions: string[]): Promise<string | undefined> {
    this.recent.push(this.now());
    this.shown.push({ message, actions });
    if (this.shown.length > SHOWN_KEPT) this.shown.shift();
    return vscode.window.showInformationMessage(message, ...actions);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
  }
}
