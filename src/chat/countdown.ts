import { setInterval as everySecond } from 'node:timers/promises';

/** Waits out a rate limit with a visible countdown, ending at once when the user stops (with the stop's reason). */
export async function waitWithCountdown(ms: number, signal: AbortSignal, tick?: (s: number) => void): Promise<void> {
  let left = Math.ceil(ms / 1000);
  tick?.(left);
  signal.throwIfAborted();
  try {
    for await (const _ of everySecond(1000, undefined, { signal })) {
      if (--left <= 0) return;
      tick?.(left);
    }
  } catch {
    throw signal.reason;
  }
}

export interface RateLimitWaitOptions {
  signal: AbortSignal;
  /** Called each second of the wait. */
  onRetryWait?: (secondsLeft: number) => void;
  /** Longest wait that is waited out here (default a minute); a longer one is the user's to decide. */
  maxRetryWaitMs?: number;
}

/** The rate limits one reply waits out before it gives up and says so: a bound, so a busy service cannot hold it forever. */
const MAX_RATE_WAITS = 2;

/** Waits out a 429 the service asked to retry soon, a bounded number of times per reply. */
export class RateLimitWaits {
  private used = 0;

  constructor(private readonly options: RateLimitWaitOptions) {}

  /** After a refusal: `retry` once it was waited out, `stopped` if the user stopped meanwhile, undefined when it is not one to wait for. */
  async after(err: { status?: number; retryAfterMs?: number }): Promise<'retry' | 'stopped' | undefined> {
    const wait = err.retryAfterMs ?? 5_000;
    if (err.status !== 429 || this.used >= MAX_RATE_WAITS || wait > (this.options.maxRetryWaitMs ?? 60_000)) return undefined;
    this.used++;
    try {
      await waitWithCountdown(Math.max(wait, 1000), this.options.signal, this.options.onRetryWait);
      return 'retry';
    } catch {
      return 'stopped';
    }
  }
}
