/**
 * The limits on what inline suggestions may spend: requests in the last hour, tokens today (the
 * local day), and the pause a 429 asks for. Each is checked before a request leaves; past one,
 * suggestions pause until the time it names. In memory, for this window.
 */

export type PauseReason = 'requests' | 'tokens' | 'rateLimited';

export interface Pause {
  reason: PauseReason;
  /** When suggestions may go on (epoch ms). */
  until: number;
}

export interface BudgetLimits {
  requestsPerHour: number;
  tokensPerDay: number;
}

const HOUR_MS = 3_600_000;

/** The next local midnight after `at`. */
export function nextMidnight(at: number): number {
  const d = new Date(at);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

export class InlineBudget {
  /** When each request of the last hour left, oldest first. */
  private sent: number[] = [];
  private tokens = 0;
  /** The day `tokens` counts: its midnight's end. */
  private dayEnds = 0;
  private rateLimitedUntil = 0;

  constructor(
    public limits: BudgetLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Why a request may not leave now, or undefined when it may. */
  pause(): Pause | undefined {
    const now = this.now();
    if (now < this.rateLimitedUntil) return { reason: 'rateLimited', until: this.rateLimitedUntil };
    this.sent = this.sent.filter((t) => t > now - HOUR_MS);
    if (this.sent.length >= this.limits.requestsPerHour) return { reason: 'requests', until: this.sent[this.sent.length - this.limits.requestsPerHour] + HOUR_MS };
    this.rollDay(now);
    if (this.tokens >= this.limits.tokensPerDay) return { reason: 'tokens', until: this.dayEnds };
    return undefined;
  }

  /** A request left. */
  request(): void {
    this.sent.push(this.now());
  }

  /** What a request cost, as the service counted it. */
  spent(tokens: number): void {
    this.rollDay(this.now());
    this.tokens += tokens;
  }

  /** The service answered 429: nothing leaves for `waitMs` (its retry-after). */
  rateLimited(waitMs: number): void {
    this.rateLimitedUntil = Math.max(this.rateLimitedUntil, this.now() + waitMs);
  }

  /** Tokens counted today, for the status bar. */
  get tokensToday(): number {
    this.rollDay(this.now());
    return this.tokens;
  }

  private rollDay(now: number): void {
    if (now < this.dayEnds) return;
    this.dayEnds = nextMidnight(now);
    this.tokens = 0;
  }
}
