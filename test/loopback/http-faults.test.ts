/** Retries, timeouts and broken streams, against a loopback server that misbehaves on cue. */
import assert from 'node:assert/strict';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { reset, scripted, status, type Step } from '../support/scriptedServer';
import { streamChat } from '../support/streamChat';

const req = { deployment: 'd', messages: [{ role: 'user' as const, content: 'x' }] };

describe('HTTP layer under faults', () => {
  const fast = { baseDelayMs: 10, maxDelayMs: 20 };

  it('retries 5xx with backoff and then succeeds (a GET)', async () => {
    const s = await scripted([status(503), status(502)]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    try {
      assert.equal((await c.getResponse('resp_1')).id, 'c');
      assert.equal(s.hits(), 3);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('retries a connection reset (a GET)', async () => {
    const s = await scripted([reset]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    try {
      await c.getResponse('resp_1');
      assert.equal(s.hits(), 2);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('stops after the bounded number of attempts and reports the last error', async () => {
    const s = await scripted([status(500), status(500), status(500), status(500), status(500)]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { ...fast, maxRetries: 2 } });
    try {
      await assert.rejects(c.getResponse('resp_1'), (e: unknown) => e instanceof ServiceError && e.status === 500 && /failed \(HTTP 500\)/.test(e.message));
      assert.equal(s.hits(), 3);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('honours x-should-retry: false and does not retry 4xx', async () => {
    const s = await scripted([status(503, { 'x-should-retry': 'false' }), status(400)]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    try {
      await assert.rejects(c.createChatCompletion(req), (e: unknown) => (e as ServiceError).status === 503);
      await assert.rejects(c.createChatCompletion(req), (e: unknown) => (e as ServiceError).status === 400);
      assert.equal(s.hits(), 2);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('waits retry-after-ms before retrying a 429', async () => {
    const s = await scripted([status(429, { 'retry-after-ms': '300', 'retry-after': '9' })]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    try {
      const t0 = Date.now();
      await c.createChatCompletion(req);
      const waited = Date.now() - t0;
      assert.ok(waited >= 290 && waited < 3000, `waited ${waited} ms`);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('backs off exponentially between retries instead of hammering a failing service', async () => {
    const s = await scripted([status(503), status(503), status(503)]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { baseDelayMs: 200, maxDelayMs: 10_000, maxRetries: 3 } });
    try {
      await c.getResponse('resp_1');
      assert.equal(s.hits(), 4);
      // Attempt n waits between half and all of base * 2^n: 100-200, 200-400, 400-800 ms.
      const [a, b, d] = s.gaps();
      assert.ok(a >= 95 && b >= 195 && d >= 395, `gaps ${s.gaps().join(', ')} ms`);
      // ...and never more than base * 2^n (with room for a busy machine's timers).
      assert.ok(a < 350 && b < 700, `gaps ${s.gaps().join(', ')} ms`);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('gives up when the next wait would exceed the retry time budget, and says when to try again', async () => {
    const s = await scripted([status(503, { 'retry-after-ms': '300' }), status(503, { 'retry-after-ms': '300' }), status(503, { 'retry-after-ms': '300' })]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { maxRetries: 5, maxTotalMs: 500 } });
    try {
      const t0 = Date.now();
      await assert.rejects(c.getResponse('resp_1'), (e: unknown) => e instanceof ServiceError && e.status === 503 && e.retryAfterMs === 300);
      const took = Date.now() - t0;
      // One retry fits in 500 ms, a second would not: two requests, about 300 ms.
      assert.equal(s.hits(), 2);
      assert.ok(took < 500, `took ${took} ms`);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('reports at once a rate limit whose wait is longer than the budget', async () => {
    const s = await scripted([status(429, { 'retry-after-ms': '30000' })]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { maxTotalMs: 2000 } });
    try {
      const t0 = Date.now();
      await assert.rejects(c.getResponse('resp_1'), (e: unknown) => e instanceof ServiceError && e.status === 429 && e.retryAfterMs === 30_000);
      assert.equal(s.hits(), 1);
      assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('times out a service that never answers, naming the host', async () => {
    const s = await scripted([() => {}]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, timeouts: { headersMs: 200 }, retry: { maxRetries: 0 } });
    try {
      await assert.rejects(c.createChatCompletion(req), (e: unknown) => e instanceof ServiceError && e.kind === 'timeout' && e.message.includes(new URL(s.url).host));
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('never retries a stream after its first byte: a cut stream is an error, sent once', async () => {
    const cut: Step = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const s = await scripted([cut, cut, cut]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    let text = '';
    try {
      await assert.rejects(streamChat(c, req, (t) => (text += t)), (e: unknown) => e instanceof ServiceError && (e.kind === 'network' || e.kind === 'stream'));
      assert.equal(text, 'Hel');
      assert.equal(s.hits(), 1);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('fails a response that is not JSON with a clear message', async () => {
    const s = await scripted([(_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>captive portal</html>')]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    try {
      await assert.rejects(
        c.createChatCompletion(req),
        (e: unknown) =>
          e instanceof ServiceError &&
          e.kind === 'invalid-response' &&
          /not what the API promises/.test(e.message) &&
          e.serviceMessage === '<html>captive portal</html>',
      );
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('does not retry a connection that is refused: the service is not there, waiting will not help', async () => {
    const s = await scripted([]);
    const url = s.url;
    await s.close();
    const c = new AzureOpenAIClient({ endpoint: url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { baseDelayMs: 300, maxRetries: 3 } });
    try {
      const t0 = Date.now();
      await assert.rejects(c.getResponse('resp_1'), (e: unknown) => e instanceof ServiceError && e.kind === 'network' && e.code === 'ECONNREFUSED');
      assert.ok(Date.now() - t0 < 250, `took ${Date.now() - t0} ms`);
    } finally {
      await c.close();
    }
  });

  it('retries what the service marks x-should-retry: true, even a 4xx', async () => {
    const s = await scripted([status(409, { 'x-should-retry': 'true' })]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    try {
      await c.getResponse('resp_1');
      assert.equal(s.hits(), 2);
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('names the request id from x-request-id when apim-request-id is absent', async () => {
    const s = await scripted([status(400, { 'x-request-id': 'req-123' })]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
    try {
      await assert.rejects(c.getResponse('resp_1'), (e: unknown) => e instanceof ServiceError && e.requestId === 'req-123');
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('stops at once when the user cancels, during a request or a backoff wait', async () => {
    const s = await scripted([status(503), () => {}]);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { baseDelayMs: 5000, maxDelayMs: 5000 } });
    try {
      // The first answer is a 503: the client waits 2.5-5 s before the retry; cancelling ends the wait.
      const waiting = new AbortController();
      setTimeout(() => waiting.abort(), 150);
      let t0 = Date.now();
      await assert.rejects(c.getResponse('resp_1', { signal: waiting.signal }), (e: unknown) => e instanceof ServiceError && e.kind === 'aborted');
      assert.ok(Date.now() - t0 < 1500, `the wait ended after ${Date.now() - t0} ms`);
      assert.equal(s.hits(), 1);
      // The second request is never answered: cancelling ends it too.
      const hanging = new AbortController();
      setTimeout(() => hanging.abort(), 150);
      t0 = Date.now();
      await assert.rejects(c.getResponse('resp_1', { signal: hanging.signal }), (e: unknown) => e instanceof ServiceError && e.kind === 'aborted');
      assert.ok(Date.now() - t0 < 1500, `the request ended after ${Date.now() - t0} ms`);
    } finally {
      await c.close();
      await s.close();
    }
  });

  describe('what is not safe to send twice', () => {
    const endpoint = { name: 'e', url: 'https://example.com/hook', event_types: ['response.completed'] };
    for (const [label, fault] of [['answered 503', status(503)], ['reset', reset]] as const) {
      it(`a webhook endpoint create that is ${label} is sent once, and the error says to look for it before creating it again`, async () => {
        const s = await scripted([fault]);
        const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
        try {
          await assert.rejects(c.createWebhookEndpoint(endpoint), /may have been created all the same: refresh the list of webhook endpoints/);
          assert.equal(s.hits(), 1);
        } finally {
          await c.close();
          await s.close();
        }
      });
    }

    it('a chat completion answered 503 or reset is sent once; one refused with 429 is sent again', async () => {
      const s = await scripted([status(503), reset, status(429, { 'retry-after-ms': '10' })]);
      const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
      try {
        await assert.rejects(c.createChatCompletion(req), (e: unknown) => (e as ServiceError).status === 503);
        await assert.rejects(c.createChatCompletion(req), (e: unknown) => (e as ServiceError).kind === 'network');
        assert.equal(s.hits(), 2);
        assert.equal((await c.createChatCompletion(req)).choices[0].message.content, 'ok');
        assert.equal(s.hits(), 4);
      } finally {
        await c.close();
        await s.close();
      }
    });

    it('a cancel (documented idempotent) is retried', async () => {
      const s = await scripted([status(503)]);
      const c = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' }, retry: fast });
      try {
        await c.cancelResponse('resp_1');
        assert.equal(s.hits(), 2);
      } finally {
        await c.close();
        await s.close();
      }
    });
  });
});
