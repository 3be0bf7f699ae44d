/**
 * Traces on their way to the user's collector: gathered into batches (one OTLP request for many
 * traces), a refusal logged and not sent again, nothing waiting past the queue's bound. A real
 * OTLP/HTTP exporter posting to a collector on loopback.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TraceExportQueue } from '../../src/trace/exportQueue';
import { OtlpTraceSender } from '../../src/trace/otlp';
import { sampleTrace } from '../support/traces';

describe('traces exported in batches to a collector on loopback', () => {
  let collector: Server;
  let status = 200;
  const posts: Array<{ spans: number; traces: number }> = [];
  let sender: OtlpTraceSender;
  before(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        type Body = { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: string }> }> }> };
        const spans = (JSON.parse(body) as Body).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
        posts.push({ spans: spans.length, traces: new Set(spans.map((s) => s.traceId)).size });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    sender = new OtlpTraceSender(`http://127.0.0.1:${(collector.address() as AddressInfo).port}/`, 'test');
  });
  after(async () => {
    await sender.shutdown();
    await new Promise((r) => collector.close(r));
  });
  beforeEach(() => (posts.length = 0, (status = 200)));

  it('300 traces go in two requests, every span of each', async () => {
    const queue = new TraceExportQueue({ send: (b) => sender.send(b), delayMs: 60_000 });
    for (let i = 0; i < 300; i++) queue.add(sampleTrace(3, Date.UTC(2026, 0, 1) + i));
    await queue.flush();
    assert.deepEqual(posts, [{ spans: 256 * 3, traces: 256 }, { spans: 44 * 3, traces: 44 }]);
  });

  it('a collector that refuses gets the batch once, the reason is told, and later traces still go', async () => {
    status = 503;
    const errors: unknown[] = [];
    const queue = new TraceExportQueue({ send: (b) => sender.send(b), delayMs: 60_000, onError: (e) => errors.push(e) });
    queue.add(sampleTrace(2));
    await queue.flush();
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /retryable status|503/);
    // The exporter of the packages retries a 503 a few times on its own; the queue never sends the batch again.
    const refused = posts.length;
    assert.ok(refused >= 1 && refused <= 6, `${refused} posts for one refused batch`);
    status = 200;
    queue.add(sampleTrace(2));
    await queue.flush();
    assert.equal(posts.length, refused + 1);
    assert.equal(errors.length, 1);
  });

  it('past its bound, traces are dropped and counted rather than kept without end', async () => {
    const queue = new TraceExportQueue({ send: (b) => sender.send(b), delayMs: 60_000, maxBatch: 10_000, maxQueue: 5 });
    for (let i = 0; i < 8; i++) queue.add(sampleTrace(2));
    assert.equal(queue.dropped, 3);
    await queue.flush();
    assert.deepEqual(posts, [{ spans: 10, traces: 5 }]);
  });
});
