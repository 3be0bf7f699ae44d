import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AzureOpenAIClient } from '../../src/service/client';
import { ArmClient } from '../../src/service/arm';
import { ServiceError } from '../../src/service/errors';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { freePort } from '../support/ports';
import { startTestIssuer } from '../support/testIssuer';
import { eventually } from '../support/receiver';
import { streamChat } from '../support/streamChat';

const messages = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'hello emulator' },
];

async function rejectsWith(p: Promise<unknown>, check: (e: ServiceError) => void): Promise<void> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ServiceError, `expected a ServiceError, got ${err}`);
    check(err);
    return;
  }
  assert.fail('expected the call to fail');
}

describe('service client against the emulator', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;

  before(async () => {
    emu = await startEmulator();
    client = new AzureOpenAIClient({ endpoint: `${emu.url}/openai/v1/`, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  for (const route of ['v1', 'deployment'] as const) {
    it(`completes a chat on the ${route} route with realistic usage`, async () => {
      const res = await client.createChatCompletion({ deployment: 'gpt-4o', messages }, { route });
      assert.equal(res.object, 'chat.completion');
      assert.match(res.choices[0].message.content ?? '', /You said: hello emulator/);
      assert.equal(res.choices[0].finish_reason, 'stop');
      assert.ok(res.usage && res.usage.prompt_tokens > 5 && res.usage.completion_tokens > 10);
      assert.equal(res.usage.total_tokens, res.usage.prompt_tokens + res.usage.completion_tokens);
    });

    it(`streams a chat on the ${route} route, the same text as the plain reply, with usage`, async () => {
      const pieces: string[] = [];
      const result = await streamChat(client, { deployment: 'gpt-4o', messages: [{ role: 'user', content: '/markdown' }], stream_options: { include_usage: true } }, (t) => pieces.push(t), { route });
      const plain = await client.createChatCompletion({ deployment: 'gpt-4o', messages: [{ role: 'user', content: '/markdown' }] }, { route });
      assert.ok(pieces.length > 20, 'the reply arrives in many pieces');
      assert.equal(result.content, plain.choices[0].message.content);
      assert.match(result.content, /```typescript/);
      assert.equal(result.finishReason, 'stop');
      assert.equal(result.usage?.completion_tokens, plain.usage?.completion_tokens);
    });
  }

  it('stops a stream at once when the signal aborts, and the emulator sees the connection close', async () => {
    const slow = await startEmulator({ config: { streamTokenDelayMs: 5 } });
    const c = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey } });
    try {
      const ac = new AbortController();
      let received = '';
      await rejectsWith(
        streamChat(c, { deployment: 'gpt-4o', messages: [{ role: 'user', content: '/long 2000' }] }, (t) => {
          received += t;
          if (received.length > 50) ac.abort();
        }, { signal: ac.signal }),
        (e) => assert.equal(e.kind, 'aborted'),
      );
      await eventually(() => slow.stats.streamsAborted === 1);
      assert.equal(slow.stats.streamsCompleted, 0);
      assert.ok(received.length < 400, 'no more text after the abort');
    } finally {
      await c.close();
      await slow.close();
    }
  });

  it('stops a stream when the consumer breaks out of the loop', async () => {
    const slow = await startEmulator({ config: { streamTokenDelayMs: 5 } });
    const c = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey } });
    try {
      let n = 0;
      for await (const _ of c.streamChatCompletion({ deployment: 'gpt-4o', messages: [{ role: 'user', content: '/long 2000' }] })) {
        if (++n === 5) break;
      }
      await eventually(() => slow.stats.streamsAborted === 1);
    } finally {
      await c.close();
      await slow.close();
    }
  });

  it('cuts the reply at max_tokens with finish_reason length', async () => {
    const res = await client.createChatCompletion({ deployment: 'gpt-4o', messages: [{ role: 'user', content: '/long 300' }], max_tokens: 12 });
    assert.equal(res.choices[0].finish_reason, 'length');
    assert.equal(res.usage?.completion_tokens, 12);
  });

  it('rejects max_tokens on a reasoning model, naming the parameter to use instead', async () => {
    await rejectsWith(client.createChatCompletion({ deployment: 'o3-mini', messages, max_tokens: 10 }), (e) => {
      assert.equal(e.status, 400);
      assert.equal(e.param, 'max_tokens');
      assert.match(e.message, /max_completion_tokens/);
    });
    const ok = await client.createChatCompletion({ deployment: 'o3-mini', messages, max_completion_tokens: 10 });
    assert.equal(ok.choices[0].finish_reason, 'length');
  });

  it('ends a filtered stream with finish_reason content_filter', async () => {
    const r = await streamChat(client, { deployment: 'gpt-4o', messages: [{ role: 'user', content: '/filter-stream' }] }, () => {});
    assert.equal(r.finishReason, 'content_filter');
  });

  it('explains a wrong key (401) and never shows the key', async () => {
    const bad = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: 'wrong-key-123' } });
    try {
      await rejectsWith(bad.createChatCompletion({ deployment: 'gpt-4o', messages }), (e) => {
        assert.equal(e.status, 401);
        assert.match(e.message, /Access denied \(401\) by 127\.0\.0\.1:\d+/);
        assert.ok(e.requestId, 'carries the apim-request-id');
        assert.ok(!e.message.includes('wrong-key-123'));
      });
    } finally {
      await bad.close();
    }
  });

  it('sends bearer tokens from the token provider as Authorization, never as api-key', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
    const server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    let calls = 0;
    const c = new AzureOpenAIClient({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, auth: { kind: 'bearer', getToken: async () => `token-${++calls}` } });
    try {
      await c.createChatCompletion({ deployment: 'gpt-4o-mini', messages });
      assert.equal(calls, 1);
      assert.equal(seen[0].authorization, 'Bearer token-1');
      assert.equal(seen[0]['api-key'], undefined);
    } finally {
      await c.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    // The emulator, like the v1 API, also takes the key itself as a bearer token.
    const viaEmulator = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'bearer', getToken: async () => emu.apiKey } });
    try {
      assert.equal((await viaEmulator.createChatCompletion({ deployment: 'gpt-4o-mini', messages })).choices.length, 1);
    } finally {
      await viaEmulator.close();
    }
  });

  it('names the missing deployment (404 DeploymentNotFound) on both routes', async () => {
    for (const route of ['v1', 'deployment'] as const) {
      await rejectsWith(client.createChatCompletion({ deployment: 'gpt-9', messages }, { route }), (e) => {
        assert.equal(e.status, 404);
        assert.equal(e.code, 'DeploymentNotFound');
        assert.match(e.message, /deployment "gpt-9" does not exist/);
      });
    }
    await rejectsWith(collect(client.streamChatCompletion({ deployment: 'gpt-9', messages })), (e) => assert.equal(e.code, 'DeploymentNotFound'));
  });

  it('names the content filter categories (400 content_filter)', async () => {
    await rejectsWith(client.createChatCompletion({ deployment: 'gpt-4o', messages: [{ role: 'user', content: '/filter' }] }), (e) => {
      assert.equal(e.code, 'content_filter');
      assert.deepEqual(e.filteredCategories, ['hate', 'violence']);
      assert.match(e.message, /Blocked by the content filter: hate \(high severity\) in the prompt, violence \(medium severity\) in the prompt\. Rephrase/);
    });
  });

  it('names the host when nothing listens there', async () => {
    const port = await freePort();
    const c = new AzureOpenAIClient({ endpoint: `http://127.0.0.1:${port}`, auth: { kind: 'apiKey', apiKey: 'k' }, retry: { maxRetries: 0 } });
    try {
      await rejectsWith(c.createChatCompletion({ deployment: 'd', messages }), (e) => {
        assert.equal(e.kind, 'network');
        assert.match(e.message, new RegExp(`127\\.0\\.0\\.1:${port} refused the connection`));
      });
    } finally {
      await c.close();
    }
  });

  describe('rate limits', () => {
    let limited: Emulator;
    before(async () => {
      limited = await startEmulator({
        config: {
          rateLimitWindowSeconds: 1,
          deployments: [{ name: 'tiny', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 2, tokensPerMinute: 100_000 }],
        },
      });
    });
    after(() => limited.close());

    it('returns 429 with retry-after, and the client says when to retry', async () => {
      const c = new AzureOpenAIClient({ endpoint: limited.url, auth: { kind: 'apiKey', apiKey: limited.apiKey }, retry: { maxRetries: 0 } });
      try {
        await c.createChatCompletion({ deployment: 'tiny', messages });
        await c.createChatCompletion({ deployment: 'tiny', messages });
        await rejectsWith(c.createChatCompletion({ deployment: 'tiny', messages }), (e) => {
          assert.equal(e.status, 429);
          assert.ok(e.retryAfterMs !== undefined && e.retryAfterMs > 0 && e.retryAfterMs <= 1000, `retry after ${e.retryAfterMs}`);
          assert.match(e.message, /Rate limit reached .*Retry in 1 second/);
        });
      } finally {
        await c.close();
      }
    });

    it('retries after the time the service asks for, then succeeds', async () => {
      const c = new AzureOpenAIClient({ endpoint: limited.url, auth: { kind: 'apiKey', apiKey: limited.apiKey }, retry: { maxRetries: 2, maxTotalMs: 5000 } });
      try {
        await new Promise((r) => setTimeout(r, 1100));
        const started = Date.now();
        for (let i = 0; i < 3; i++) await c.createChatCompletion({ deployment: 'tiny', messages });
        assert.ok(Date.now() - started >= 500, 'the third call waited for the window');
      } finally {
        await c.close();
      }
    });

    it('does not wait longer than the retry budget allows', async () => {
      const c = new AzureOpenAIClient({ endpoint: limited.url, auth: { kind: 'apiKey', apiKey: limited.apiKey }, retry: { maxRetries: 3, maxTotalMs: 50 } });
      try {
        await new Promise((r) => setTimeout(r, 1100));
        await c.createChatCompletion({ deployment: 'tiny', messages });
        await c.createChatCompletion({ deployment: 'tiny', messages });
        const started = Date.now();
        await rejectsWith(c.createChatCompletion({ deployment: 'tiny', messages }), (e) => assert.equal(e.status, 429));
        assert.ok(Date.now() - started < 500);
      } finally {
        await c.close();
      }
    });
  });

  describe('responses', () => {
    it('runs a background response queued → in_progress → completed', async () => {
      const fast = await startEmulator({ config: { responseQueuedMs: 30, responseInProgressMs: 400 } });
      const c = new AzureOpenAIClient({ endpoint: fast.url, auth: { kind: 'apiKey', apiKey: fast.apiKey } });
      try {
        const created = await c.createResponse({ model: 'gpt-4o', input: 'hi there', background: true });
        assert.equal(created.status, 'queued');
        assert.deepEqual(created.output, []);
        const seen = new Set<string>([created.status]);
        const done = await eventually(async () => {
          const r = await c.getResponse(created.id);
          seen.add(r.status);
          return r.status === 'completed' ? r : undefined;
        });
        assert.ok(seen.has('in_progress'), `states seen: ${[...seen]}`);
        assert.match(JSON.stringify(done.output), /You said: hi there/);
        assert.ok(done.usage && done.usage.output_tokens > 0);
      } finally {
        await c.close();
        await fast.close();
      }
    });

    it('cancels a queued response, idempotently', async () => {
      const r = await client.createResponse({ model: 'gpt-4o', input: 'x', background: true });
      const cancelled = await client.cancelResponse(r.id);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal((await client.cancelResponse(r.id)).status, 'cancelled');
      assert.equal((await client.getResponse(r.id)).status, 'cancelled');
    });

    it('answers 404 for an unknown response id', async () => {
      await rejectsWith(client.getResponse('resp_nope'), (e) => assert.equal(e.status, 404));
    });
  });

  describe('webhook endpoints', () => {
    it('creates (secret once), lists, updates and deletes', async () => {
      const created = await client.createWebhookEndpoint({ name: 'ci', url: 'https://example.test/hook', event_types: ['response.completed'] });
      assert.match(created.signing_secret, /^whsec_/);
      assert.equal(created.signing_secret_hint, `whsec_...${created.signing_secret.slice(-4)}`);
      const listed = await collect(client.listWebhookEndpoints());
      const item = listed.find((e) => e.id === created.id);
      assert.ok(item);
      assert.equal((item as { signing_secret?: string }).signing_secret, undefined, 'the list never shows the secret');
      const updated = await client.updateWebhookEndpoint(created.id, { name: 'ci-2', event_types: ['batch.completed', 'response.failed'] });
      assert.equal(updated.name, 'ci-2');
      assert.deepEqual(updated.event_types, ['batch.completed', 'response.failed']);
      assert.equal(updated.url, 'https://example.test/hook');
      await client.deleteWebhookEndpoint(created.id);
      assert.ok(!(await collect(client.listWebhookEndpoints())).some((e) => e.id === created.id));
      await rejectsWith(client.deleteWebhookEndpoint(created.id), (e) => assert.equal(e.status, 404));
    });

    it('rejects bad input naming the field', async () => {
      await rejectsWith(client.createWebhookEndpoint({ name: 'x', url: 'http://example.test/hook', event_types: ['response.completed'] }), (e) => assert.equal(e.param, 'url'));
      await rejectsWith(client.createWebhookEndpoint({ name: 'x', url: 'https://example.test', event_types: ['response.done'] }), (e) => {
        assert.equal(e.param, 'event_types');
        assert.match(e.message, /response\.done/);
      });
      await rejectsWith(client.createWebhookEndpoint({ name: '', url: 'https://example.test', event_types: ['response.completed'] }), (e) => assert.equal(e.param, 'name'));
    });

    it('follows after/has_more through hundreds of endpoints, newest first', async () => {
      const many = await startEmulator();
      const c = new AzureOpenAIClient({ endpoint: many.url, auth: { kind: 'apiKey', apiKey: many.apiKey } });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 230; i++) ids.push((await c.createWebhookEndpoint({ name: `e${i}`, url: `https://h.test/${i}`, event_types: ['batch.completed'] })).id);
        const firstPage = await c.listWebhookEndpointsPage({ limit: 100 });
        assert.equal(firstPage.data.length, 100);
        assert.equal(firstPage.has_more, true);
        const all = await collect(c.listWebhookEndpoints({ pageSize: 100 }));
        assert.deepEqual(all.map((e) => e.id), ids.reverse());
      } finally {
        await c.close();
        await many.close();
      }
    });
  });

  describe('deployments', () => {
    it('lists deployments from the data plane with model and SKU', async () => {
      const list = await client.listDeployments();
      assert.deepEqual(list.map((d) => d.name), emu.config.deployments.map((d) => d.name));
      assert.equal(list[0].model, 'gpt-4o');
      assert.equal(list[0].source, 'data-plane');
    });

    it('lists models from the v1 API', async () => {
      const models = await client.listModels();
      assert.ok(models.some((m) => m.name === 'gpt-4o-mini'));
    });

    it('walks Resource Manager through nextLink pages: subscriptions, OpenAI accounts, deployments with limits', async () => {
      const deployments = Array.from({ length: 7 }, (_, i) => ({
        name: `dep-${i}`,
        model: 'gpt-4o',
        version: '2024-11-20',
        sku: 'GlobalStandard',
        capacity: 10 + i,
        requestsPerMinute: 60 + i,
        tokensPerMinute: 6000,
      }));
      // Resource Manager takes access tokens only.
      const issuer = await startTestIssuer();
      const arm = await startEmulator({
        config: { armPageSize: 2, deployments, entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile } },
      });
      const token = await issuer.mint({ oid: 'me' }, { audience: 'https://management.azure.com', expiresInSeconds: 600 });
      const c = new ArmClient({ endpoint: arm.url, auth: { kind: 'bearer', getToken: async () => token } });
      try {
        const subs = await c.listSubscriptions();
        assert.equal(subs.length, 1);
        const accounts = await c.listAccounts(subs[0].subscriptionId);
        assert.deepEqual(accounts.map((a) => a.kind), ['OpenAI'], 'accounts of other kinds are left out');
        assert.equal(accounts[0].endpoint, `${arm.url}/`);
        assert.equal(accounts[0].resourceGroup, 'rg-emulator');
        const list = await c.listDeployments(accounts[0].id);
        assert.equal(list.length, 7);
        assert.deepEqual(list[3], {
          name: 'dep-3',
          model: 'gpt-4o',
          modelVersion: '2024-11-20',
          sku: 'GlobalStandard',
          capacity: 13,
          rateLimits: { requestsPerMinute: 63, tokensPerMinute: 6000 },
          provisioningState: 'Succeeded',
          source: 'arm',
        });
      } finally {
        await c.close();
        await arm.close();
        await issuer.close();
      }
    });
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
