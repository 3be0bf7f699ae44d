/** Trace and span ids as OTLP takes them, handed out from the pooled random hex (src/trace/span.ts): hex of the right length, never all zeros, never twice. */
import assert from 'node:assert/strict';
import { newSpanId, newTraceId } from '../../src/trace/span';

describe('trace ids', () => {
  it('gives 32 and 16 hex digits, across many refills of the pool, each id once', () => {
    const seen = new Set<string>();
    // 2 KiB a draw: 30,000 trace ids and 30,000 span ids use the pool up about 700 times.
    for (let i = 0; i < 30_000; i++) {
      const t = newTraceId();
      const s = newSpanId();
      assert.match(t, /^[0-9a-f]{32}$/);
      assert.match(s, /^[0-9a-f]{16}$/);
      assert.ok(!/^0+$/.test(t) && !/^0+$/.test(s));
      seen.add(t).add(s);
    }
    assert.equal(seen.size, 60_000);
  });
});

describe("a request's span, written out for speed", () => {
  it('carries the attribute names of GEN_AI and AOAI (the literal keys cannot drift from them)', async () => {
    const { AOAI, GEN_AI } = await import('../../src/trace/span');
    const { TraceBuilder } = await import('../../src/trace/builder');
    const b = new TraceBuilder('turn', 'gpt-4o', { captureContent: false });
    b.request({ source: 'panel', deployment: 'd', model: 'm', api: 'chat', route: 'v1', startedAt: 1, attempt: 2, totalMs: 3, outcome: 'ok', rateLimit: {} });
    const [, span] = b.finish({}, 10).spans;
    const names = [GEN_AI.operation, GEN_AI.provider, GEN_AI.requestModel, GEN_AI.responseModel, AOAI.deployment, AOAI.api, AOAI.attempt, AOAI.outcome];
    assert.deepEqual(Object.keys(span.attributes).sort(), names.sort());
    assert.deepEqual(Object.keys(span), ['spanId', 'parentSpanId', 'name', 'kind', 'start', 'end', 'attributes']);
  });
});

describe('a trace ended now, built later (off the request\'s path)', () => {
  it('holds the messages as they were when it ended, and is the same trace however often it is built', async () => {
    const { TraceBuilder } = await import('../../src/trace/builder');
    const b = new TraceBuilder('turn', 'gpt-4o', { captureContent: true });
    b.request({ source: 'panel', deployment: 'd', model: 'm', api: 'chat', route: 'v1', startedAt: 1, attempt: 1, totalMs: 3, outcome: 'ok', rateLimit: {} });
    const messages = [{ role: 'user', content: 'first question' }];
    const result = { content: 'first answer', finishReason: 'stop', latencyMs: 3, stopped: false, api: 'chat' as const };
    const built = b.end({ result, input: messages }, 10);
    // The panel goes on: the conversation grows, the next reply streams in.
    messages.push({ role: 'user', content: 'second question' });
    result.content = 'second answer';
    const trace = built();
    const request = trace.spans[1].attributes;
    assert.equal(request['gen_ai.input.messages'], JSON.stringify([{ role: 'user', content: 'first question' }]));
    assert.equal(request['gen_ai.output.messages'], JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'first answer' }] }]));
    assert.equal(trace.end, 10);
    assert.equal(built(), trace, 'built once');
  });

  it('gives each trace an id of its own when the next id is drawn ahead', async () => {
    const { TraceBuilder } = await import('../../src/trace/builder');
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      // Some built (which draws the next id ahead), some never, some two at once (Compare's columns).
      const a = new TraceBuilder('compare', 'a', { captureContent: false });
      const c = new TraceBuilder('compare', 'c', { captureContent: false });
      if (i % 3) a.finish();
      if (i % 2) c.finish();
      ids.add(a.traceId).add(c.traceId);
    }
    assert.equal(ids.size, 400);
  });
});
