/** The official `openai` package and `standardwebhooks` against the emulator: no private dialect. */
import assert from 'node:assert/strict';
import OpenAI, { AuthenticationError, AzureOpenAI, NotFoundError, RateLimitError, BadRequestError } from 'openai';
import { Webhook } from 'standardwebhooks';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { DELIVERY_USER_AGENT } from '../../src/emulator/deliveries';
import { eventually, startReceiver } from '../support/receiver';

describe('official openai client against the emulator', () => {
  let emu: Emulator;
  let azure: AzureOpenAI;
  let v1: OpenAI;
  /** The management routes, as the protocol reference says to reach them with the official client. */
  let dash: OpenAI;

  before(async () => {
    emu = await startEmulator({ config: { responseQueuedMs: 20, responseInProgressMs: 20, delivery: { maxAttempts: 4, retryBaseMs: 50, timeoutMs: 2000 } } });
    azure = new AzureOpenAI({ endpoint: emu.url, apiKey: emu.apiKey, apiVersion: '2024-10-21', deployment: 'gpt-4o', maxRetries: 0 });
    v1 = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
    dash = new OpenAI({ baseURL: `${emu.url}/openai/v1/dashboard`, apiKey: emu.apiKey, defaultHeaders: { 'api-key': emu.apiKey }, maxRetries: 0 });
  });
  after(() => emu.close());

  it('AzureOpenAI (deployment route): chat and streaming', async () => {
    const res = await azure.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'from AzureOpenAI' }] });
    assert.match(res.choices[0].message.content ?? '', /You said: from AzureOpenAI/);
    const stream = await azure.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: '/code python' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.match(text, /```python\ndef fib/);
    assert.ok(usage && usage.completion_tokens > 20);
  });

  it('OpenAI with baseURL <url>/openai/v1/: chat, streaming and models', async () => {
    const res = await v1.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(res.object, 'chat.completion');
    const stream = v1.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: '/markdown' }] });
    const final = await stream.finalChatCompletion();
    assert.match(final.choices[0].message.content ?? '', /# Emulator reply/);
    const models = await v1.models.list();
    assert.ok(models.data.some((m) => m.id === 'gpt-4o'));
  });

  it('responses: create in background, retrieve until completed, cancel', async () => {
    const created = await v1.responses.create({ model: 'gpt-4o', input: 'background please', background: true });
    assert.equal(created.status, 'queued');
    const done = await eventually(async () => {
      const r = await v1.responses.retrieve(created.id);
      return r.status === 'completed' ? r : undefined;
    });
    assert.match(done.output_text, /You said: background please/);
    // The Responses API needs an api-version that has it: 2024-10-21 (the chat GA) is refused.
    await assert.rejects(
      azure.responses.create({ model: 'gpt-4o', input: 'x' }),
      (e: unknown) => e instanceof BadRequestError && /enabled only for api-version 2025-03-01-preview and later/.test(e.message),
    );
    const preview = new AzureOpenAI({ endpoint: emu.url, apiKey: emu.apiKey, apiVersion: '2025-04-01-preview', maxRetries: 0 });
    const other = await preview.responses.create({ model: 'gpt-4o', input: 'x', background: true });
    const cancelled = await preview.responses.cancel(other.id);
    assert.equal(cancelled.status, 'cancelled');
  });

  it('webhook endpoints: create, list (paged), update and delete through client.webhooks', async () => {
    const created = await dash.webhooks.create({ name: 'sdk', url: 'https://example.test/h', event_types: ['batch.failed'] });
    assert.match(created.signing_secret, /^whsec_/);
    for (let i = 0; i < 3; i++) await dash.webhooks.create({ name: `more${i}`, url: 'https://example.test/h', event_types: ['batch.failed'] });
    const ids: string[] = [];
    for await (const e of dash.webhooks.list({ limit: 2 })) ids.push(e.id);
    assert.ok(ids.includes(created.id));
    assert.equal(new Set(ids).size, ids.length, 'no endpoint twice across pages');
    const updated = await dash.webhooks.update(created.id, { name: 'renamed' });
    assert.equal(updated.name, 'renamed');
    const deleted = await dash.webhooks.delete(created.id);
    assert.equal(deleted.deleted, true);
  });

  it('maps errors to the client\'s own classes', async () => {
    const bad = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: 'nope', maxRetries: 0 });
    await assert.rejects(bad.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }), (e: unknown) => e instanceof AuthenticationError && e.code === '401');
    const anyDeployment = new AzureOpenAI({ endpoint: emu.url, apiKey: emu.apiKey, apiVersion: '2024-10-21', maxRetries: 0 });
    await assert.rejects(
      anyDeployment.chat.completions.create({ model: 'missing', messages: [{ role: 'user', content: 'x' }] }),
      (e: unknown) => e instanceof NotFoundError && e.code === 'DeploymentNotFound',
    );
    await assert.rejects(
      v1.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: '/filter' }] }),
      (e: unknown) => e instanceof BadRequestError && e.code === 'content_filter',
    );
    const limited = await startEmulator({ config: { deployments: [{ name: 'one', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1, tokensPerMinute: 100000 }] } });
    try {
      const c = new OpenAI({ baseURL: `${limited.url}/openai/v1/`, apiKey: limited.apiKey, maxRetries: 0 });
      await c.chat.completions.create({ model: 'one', messages: [{ role: 'user', content: 'x' }] });
      await assert.rejects(
        c.chat.completions.create({ model: 'one', messages: [{ role: 'user', content: 'x' }] }),
        (e: unknown) => e instanceof RateLimitError && Number(e.headers?.get('retry-after')) > 0,
      );
    } finally {
      await limited.close();
    }
  });

  describe('webhook deliveries', () => {
    it('a background response delivers response.completed that standardwebhooks and openai.webhooks.unwrap() verify', async () => {
      const receiver = await startReceiver();
      try {
        const ep = await dash.webhooks.create({ name: 'rx', url: receiver.url, event_types: ['response.completed'] });
        const r = await v1.responses.create({ model: 'gpt-4o', input: 'deliver me', background: true });
        const [got] = await receiver.next(1);
        assert.equal(got.headers['user-agent'], DELIVERY_USER_AGENT);
        assert.equal(got.headers['content-type'], 'application/json');
        const event = new Webhook(ep.signing_secret).verify(got.body, got.headers as Record<string, string>) as {
          type: string;
          data: { id: string };
          object: string;
        };
        assert.equal(event.object, 'event');
        assert.equal(event.type, 'response.completed');
        assert.equal(event.data.id, r.id);
        const unwrapped = await v1.webhooks.unwrap(got.body, got.headers as Record<string, string>, ep.signing_secret);
        assert.equal(unwrapped.type, 'response.completed');
        await dash.webhooks.delete(ep.id);
      } finally {
        await receiver.close();
      }
    });

    it('retries a failing listener with backoff, keeping the webhook-id, and records every attempt', async () => {
      const receiver = await startReceiver([500, 503]);
      try {
        const ep = await dash.webhooks.create({ name: 'flaky', url: receiver.url, event_types: ['batch.completed'] });
        const emitted = await fetch(`${emu.url}/emulator/events`, {
          method: 'POST',
          headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'batch.completed', data: { id: 'batch_2' } }),
        });
        assert.equal(emitted.status, 200);
        const got = await receiver.next(3);
        const ids = new Set(got.map((g) => g.headers['webhook-id']));
        assert.equal(ids.size, 1, 'the same webhook-id on every attempt');
        for (const g of got) new Webhook(ep.signing_secret).verify(g.body, g.headers as Record<string, string>);
        const delivery = await eventually(() => emu.deliveries().find((d) => d.webhookId === [...ids][0] && d.state === 'delivered'));
        assert.deepEqual(delivery.attempts.map((a) => a.status), [500, 503, 200]);
        const read = await (await fetch(`${emu.url}/emulator/deliveries`, { headers: { 'api-key': emu.apiKey } })).json() as { data: Array<{ webhookId: string; attempts: unknown[] }> };
        assert.equal(read.data.find((d) => d.webhookId === delivery.webhookId)?.attempts.length, 3);
        await dash.webhooks.delete(ep.id);
      } finally {
        await receiver.close();
      }
    });

    it('the test route sends a signed event and reports the listener status', async () => {
      const receiver = await startReceiver([204]);
      try {
        const ep = await dash.webhooks.create({ name: 't', url: receiver.url, event_types: ['response.completed'] });
        const res = await dash.post<{ status_code: number; success: boolean }>(`/webhook_endpoints/${ep.id}/test`, { body: { event_type: 'realtime.call.incoming' } });
        assert.deepEqual({ status: res.status_code, success: res.success }, { status: 204, success: true });
        const event = new Webhook(ep.signing_secret).verify(receiver.received[0].body, receiver.received[0].headers as Record<string, string>) as {
          data: { call_id: string; sip_headers: unknown[] };
        };
        assert.match(event.data.call_id, /^rtc_/);
        assert.ok(Array.isArray(event.data.sip_headers));
      } finally {
        await receiver.close();
      }
    });
  });
});
