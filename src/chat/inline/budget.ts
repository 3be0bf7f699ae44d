/**
 * The limits on what inline suggestions may spend: requests in the last hour, tokens today (the
 * local day), and the pause a 429 asks for. Each is checked before a request leaves; past one,
 * suggestions pause until the time it names. Its state is kept across reloads by its owner
 * (snapshot/restore), so a reload does not hand out a new hour's or day's budget.
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

/** What a reload keeps: the requests of the last hour, today's tokens and a 429's pause. */
export interface BudgetState {
  sent: number[];
  tokens: number;
  dayEnds: number;
  rateLimitedUntil: number;
}

const HOUR_MS = 3_600_000;
const isTime = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;

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

  snapshot(): BudgetState {
    this.pause();
    return { sent: [...this.sent], tokens: this.tokens, dayEnds: this.dayEnds, rateLimitedUntil: this.rateLimitedUntil };
  }

  /** Takes back a snapshot of an earlier session; anything malformed in it is left out. */
  restore(state: unknown): void {
    const s = (state ?? {}) as Partial<Record<keyof BudgetState, unknown>>;
    if (Array.isArray(s.sent)) this.sent = s.sent.filter(isTime).sort((a, b) => a - b).slice(-100_000);
    if (isTime(s.tokens) && isTime(s.dayEnds)) (this.tokens = s.tokens), (this.dayEnds = s.dayEnds);
    if (isTime(s.rateLimitedUntil)) this.rateLimitedUntil = s.rateLimitedUntil;
  }

  private rollDay(now: number): void {
    if (now < this.dayEnds) return;
    this.dayEnds = nextMidnight(now);
    this.tokens = 0;
  }
}
