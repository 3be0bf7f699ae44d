/** Which failures are sent again and which are reported, as the service marks them; and a new token on a 401. */
import assert from 'node:assert/strict';
import { AzureOpenAIClient } from '../../src/service/client';
import type { AuthSource } from '../../src/service/connection';
import { ServiceError } from '../../src/service/errors';
import { backoffDelay, HttpClient } from '../../src/service/http';
import { scripted, status, type Step } from '../support/scriptedServer';

const fast = { baseDelayMs: 5, maxDelayMs: 10 };
const chat = { deployment: 'd', messages: [{ role: 'user' as const, content: 'x' }] };

async function withServer(steps: Step[], auth: AuthSource, run: (c: AzureOpenAIClient, http: HttpClient, url: string) => Promise<void>, retry = {}) {
  const s = await scripted(steps);
  const c = new AzureOpenAIClient({ endpoint: s.url, auth, retry: { ...fast, ...retry } });
  const http = new HttpClient(auth, {}, { ...fast, ...retry });
  try {
    await run(c, http, s.url);
    return s;
  } finally {
    await c.close();
    await http.close();
    await s.close();
  }
}
const key: AuthSource = { kind: 'apiKey', apiKey: 'k' };

describe('retry rules', () => {
  it('does not retry a 5xx the service marks x-should-retry: false, even a GET', async () => {
    const s = await withServer([status(503, { 'x-should-retry': 'false' })], key, async (c) => {
      await assert.rejects(c.getResponse('resp_1'), (e: ServiceError) => e.status === 503);
    });
    assert.equal(s.hits(), 1);
  });

  it('sends a chat completion again when the service marks its 5xx x-should-retry: true', async () => {
    const s = await withServer([status(503, { 'x-should-retry': 'true' })], key, async (c) => {
      assert.equal((await c.createChatCompletion(chat)).choices[0]?.message.content, 'ok');
    });
    assert.equal(s.hits(), 2);
  });

  it('hands a 429 straight back to a caller that shows its own countdown, but still retries a GET\'s 5xx for it', async () => {
    const limited = await withServer([status(429, { 'retry-after-ms': '10' })], key, async (_c, http, url) => {
      await assert.rejects(http.json({ method: 'GET', url: `${url}/x`, retryRateLimits: false }), (e: ServiceError) => e.status === 429 && e.retryAfterMs === 10);
    });
    assert.equal(limited.hits(), 1);
    const failing = await withServer([status(503)], key, async (_c, http, url) => {
      await http.json({ method: 'GET', url: `${url}/x`, retryRateLimits: false });
    });
    assert.equal(failing.hits(), 2);
  });

  it('asks for an event stream when streaming and for JSON otherwise', async () => {
    const sse: Step = (_q, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n');
    const s = await withServer([status(200), sse], key, async (c) => {
      await c.getResponse('resp_1').catch(() => undefined);
      for await (const _ of c.streamChatCompletion(chat));
    });
    assert.deepEqual(s.requests.map((r) => r.headers.accept), ['application/json', 'text/event-stream']);
  });

  it('quotes at most 200 characters of a success body that is not JSON', async () => {
    const page: Step = (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html>${'x'.repeat(1000)}</html>`);
    await withServer([page], key, async (c) => {
      await assert.rejects(c.getResponse('resp_1'), (e: ServiceError) => {
        assert.equal(e.kind, 'invalid-response');
        assert.equal(e.serviceMessage, `<html>${'x'.repeat(194)}`);
        return true;
      });
    });
  });
});

describe('a new token on a 401', () => {
  function bearer(answers: boolean[]) {
    let calls = 0;
    let token = 0;
    const auth: AuthSource = {
      kind: 'bearer',
      plane: 'data',
      getToken: async () => `token-${token}`,
      onUnauthorized: async () => {
        calls++;
        const again = answers.shift() ?? false;
        if (again) token++;
        return again;
      },
    };
    return { auth, calls: () => calls };
  }

  it('asks once for another token after a 401 and sends the request again with it', async () => {
    const b = bearer([true]);
    const s = await withServer([status(401)], b.auth, async (c) => {
      assert.equal((await c.createChatCompletion(chat)).choices[0]?.message.content, 'ok');
    });
    assert.equal(b.calls(), 1);
    assert.deepEqual(s.requests.map((r) => r.headers.authorization), ['Bearer token-0', 'Bearer token-1']);
  });

  it('reports the second 401 instead of asking again and again', async () => {
    const b = bearer([true, true, true]);
    const s = await withServer([status(401), status(401), status(401)], b.auth, async (c) => {
      await assert.rejects(c.createChatCompletion(chat), (e: ServiceError) => e.status === 401);
    });
    assert.equal(b.calls(), 1);
    assert.equal(s.hits(), 2);
  });

  it('does not ask for another token on a 403 (the role is missing, not the token)', async () => {
    const b = bearer([true]);
    const s = await withServer([status(403)], b.auth, async (c) => {
      await assert.rejects(c.createChatCompletion(chat), (e: ServiceError) => e.status === 403);
    });
    assert.equal(b.calls(), 0);
    assert.equal(s.hits(), 1);
  });

  it('does not count the new token against the retries a failing service gets', async () => {
    const b = bearer([true]);
    const s = await withServer([status(401), status(503), status(503)], b.auth, async (c) => {
      assert.equal((await c.getResponse('resp_1')).id, 'c');
    }, { maxRetries: 2 });
    assert.equal(s.hits(), 4);
  });
});

describe('backoff delay', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };
  it('is half fixed and half random, doubling with each attempt up to the cap', () => {
    assert.deepEqual([0, 0.5, 1].map((r) => backoffDelay(0, policy, () => r)), [50, 75, 100]);
    assert.deepEqual([0, 1].map((r) => backoffDelay(2, policy, () => r)), [200, 400]);
    assert.deepEqual([0, 1].map((r) => backoffDelay(10, policy, () => r)), [500, 1_000]);
  });
});
