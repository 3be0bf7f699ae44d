/** Per-deployment request and token limits over a sliding window, enforced like the service. */

interface Entry {
  at: number;
  tokens: number;
}

export interface RateDecision {
  allowed: boolean;
  /** When the request could pass, if it did not. */
  retryAfterMs: number;
  remainingRequests: number;
  remainingTokens: number;
  limitRequests: number;
  limitTokens: number;
  which?: 'requests' | 'tokens';
}

export class RateLimiter {
  private readonly log = new Map<string, Entry[]>();

  constructor(private readonly windowMs: number) {}

  private entries(key: string, now: number): Entry[] {
    const all = this.log.get(key) ?? [];
    const live = all.filter((e) => now - e.at < this.windowMs);
    this.log.set(key, live);
    return live;
  }

  /** Takes one request of `tokens` from the budget, or says how long to wait. */
  take(key: string, limits: { requests: number; tokens: number }, tokens: number, now = Date.now()): RateDecision {
    const live = this.entries(key, now);
    const usedTokens = live.reduce((s, e) => s + e.tokens, 0);
    const base = { limitRequests: limits.requests, limitTokens: limits.tokens };
    if (live.length + 1 > limits.requests) {
      return { ...base, allowed: false, which: 'requests', retryAfterMs: live[0].at + this.windowMs - now, remainingRequests: 0, remainingTokens: Math.max(0, limits.tokens - usedTokens) };
    }
    if (usedTokens + tokens > limits.tokens) {
      // Wait until enough old entries have left the window for this request to fit.
      let freed = 0;
      let wait = this.windowMs;
      for (const e of live) {
        freed += e.tokens;
        if (usedTokens - freed + tokens <= limits.tokens) {
          wait = e.at + this.windowMs - now;
          break;
        }
      }
      return { ...base, allowed: false, which: 'tokens', retryAfterMs: wait, remainingRequests: limits.requests - live.length, remainingTokens: Math.max(0, limits.tokens - usedTokens) };
    }
    live.push({ at: now, tokens });
    return { ...base, allowed: true, retryAfterMs: 0, remainingRequests: limits.requests - live.length, remainingTokens: limits.tokens - usedTokens - tokens };
  }
}
