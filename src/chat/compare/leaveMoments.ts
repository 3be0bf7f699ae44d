/**
 * When the requests of one compare round actually leave: undici announces each request once its
 * headers are written to its connection (`REQUEST_SENT`, whichever undici sends it), which is later than the moment the runner
 * is called (auth headers, connecting) and is what "sent at the same moment" means.
 * The first `expected` requests to the round's origins are taken; the spread is last − first.
 */
import { performance } from 'node:perf_hooks';
import { REQUEST_SENT } from '../../service/transport';

/** An origin as the HTTP layer tells it (a string or a URL), or undefined when it is neither. */
export function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof URL)) return undefined;
  try {
    return new URL(String(value)).origin;
  } catch {
    return undefined;
  }
}

/** The spread between the first and the last of `moments` (ms), none for fewer than two. */
export function spreadOf(moments: readonly number[]): number | undefined {
  if (moments.length < 2) return undefined;
  return Math.max(...moments) - Math.min(...moments);
}

export class LeaveMoments {
  readonly moments: number[] = [];
  private readonly origins: Set<string>;
  private readonly listener = (message: unknown) => {
    const request = (message as { request?: { origin?: unknown } } | null)?.request;
    const origin = originOf(request?.origin);
    if (origin === undefined || !this.origins.has(origin) || this.moments.length >= this.expected) return;
    this.moments.push(performance.now());
    if (this.moments.length === this.expected) this.stop();
  };
  private listening = false;

  /** Listens for `expected` requests to any of `endpoints` (their origins). */
  constructor(
    endpoints: readonly string[],
    private readonly expected: number,
  ) {
    this.origins = new Set(endpoints.map(originOf).filter((o): o is string => o !== undefined));
    REQUEST_SENT.subscribe(this.listener);
    this.listening = true;
  }

  /** Stops listening (idempotent): a round that ended early, or all requests seen. */
  stop(): void {
    if (!this.listening) return;
    this.listening = false;
    REQUEST_SENT.unsubscribe(this.listener);
  }

  /** Last − first moment a request left (ms); none until two have left. */
  get spreadMs(): number | undefined {
    return spreadOf(this.moments);
  }
}
