/**
 * A turn's trace of `spans` spans as the builder makes it: requests (every seventh a 429 with its
 * wait), tool runs between them, times on a fixed clock. For the timeline page's tests and bench.
 */
import { TraceBuilder } from '../../src/trace/builder';
import type { Trace } from '../../src/trace/types';

export function sampleTrace(spans: number, t0 = Date.UTC(2026, 10, 28, 12)): Trace {
  const b = new TraceBuilder('turn', 'gpt-4o', { captureContent: false }, t0);
  let t = t0 + 2;
  // Each step adds a span (a 429's resend two): enough steps, then the trace is cut to `spans`.
  for (let i = 1; i < spans; i++) {
    if (i % 2) {
      const limited = i % 7 === 0;
      const tokens = limited ? undefined : { prompt: 120 + i, cached: 0, completion: 30 + i, reasoning: 0 };
      b.request({
        source: 'panel', deployment: 'gpt-4o', model: 'gpt-4o-2024-11-20', api: 'chat', route: 'v1', startedAt: t, attempt: 1, totalMs: 40 + i,
        outcome: limited ? 'rate_limited' : 'ok', status: limited ? 429 : undefined, retryAfterMs: limited ? 500 : undefined, tokens, rateLimit: {},
      });
      t += 40 + i + (limited ? 500 : 3);
    } else {
      b.tool({ callId: `call_${i}`, name: i % 4 ? 'get_weather' : 'search_files' }, { start: t, end: t + 5 + i, resultBytes: 100 * i });
      t += 8 + i;
    }
  }
  const trace = b.finish({}, t);
  trace.spans.length = Math.min(trace.spans.length, spans);
  return trace;
}
