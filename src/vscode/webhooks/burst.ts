/**
 * Runs an update once for a burst of changes: `delayMs` after the first change when things were
 * quiet, and no sooner than `spacingMs` after the previous run while a burst goes on. A thousand
 * deliveries in a few seconds then redraw a view a few times, not every 50 ms: each redraw sends
 * every visible row to VS Code again, and that was most of what a burst allocated in the host.
 */
export class BurstGate {
  private timer: NodeJS.Timeout | undefined;
  private lastRun = -Infinity;

  constructor(
    private readonly run: () => void,
    private readonly delayMs = 50,
    private readonly spacingMs = 500,
  ) {}

  /** A change: the update runs once for it and every change until then. */
  schedule(): void {
    if (this.timer) return;
    const wait = Math.max(this.delayMs, this.lastRun + this.spacingMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastRun = Date.now();
      this.run();
    }, wait);
  }

  get scheduled(): boolean {
    return !!this.timer;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Lets `perWindow` log lines through per window and counts the rest, reported in one line when
 * the window ends: a burst of deliveries logged line by line was thousands of lines nobody reads
 * (every delivery is in the Events view and its file anyway), and each cost the host as much as
 * the delivery's own record.
 */
export class LineBudget {
  private used = 0;
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: (skipped: number) => void,
    private readonly perWindow = 20,
    private readonly windowMs = 1_000,
  ) {}

  /** True when this line may be logged; otherwise it was counted. */
  admit(): boolean {
    this.timer ??= setTimeout(() => this.endWindow(), this.windowMs).unref();
    if (this.used < this.perWindow) {
      this.used++;
      return true;
    }
    this.skipped++;
    return false;
  }

  /** Ends the window now: what was counted is reported. */
  endWindow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const skipped = this.skipped;
    this.used = 0;
    this.skipped = 0;
    if (skipped) this.report(skipped);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
