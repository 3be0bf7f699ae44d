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
    private readonly now: () => number = Date.now,
  ) {}

  /** A change: the update runs once for it and every change until then. */
  schedule(): void {
    if (this.timer) return;
    const wait = Math.max(this.delayMs, this.lastRun + this.spacingMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastRun = this.now();
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
