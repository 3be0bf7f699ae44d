/** Background replies followed to the end: polling with backoff, woken by a webhook delivery, cancelled. */
import assert from 'node:assert/strict';
import { Waker, followResponse, resultOf, startBackground } from '../../src/chat/backgroundResponse';
import type { RunInput } from '../../src/chat/chatEngine';
import { modelProfile } from '../../src/chat/modelProfile';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { ResponseAccumulator } from '../../src/service/responsesStream';
import { startReceiver } from '../support/receiver';

describe('background replies on the Responses API', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => {
    emu = await startEmulator({ config: { responseQueuedMs: 50, responseInProgressMs: 150, delivery: { maxAttempts: 1, retryBaseMs: 50, timeoutMs: 2000 } } });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  const input = (deployment: string, text: string): RunInput => ({
    client, deployment, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: text }], params: { systemPrompt: 'Be brief.', route: 'v1' }, signal: new AbortController().signal, onDelta: () => {},
  });

  it('starts queued and is followed to its reply, reasoning summary and usage included', async () => {
    const started = await startBackground(input('gpt-5-codex', 'in the background'), modelProfile('gpt-5-codex'), []);
    assert.equal(started.status, 'queued');
    const seen: string[] = [];
    const done = await followResponse(client, started.id, new AbortController().signal, (s) => seen.push(s));
    assert.equal(done?.status, 'completed');
    assert.equal(seen[0], 'queued');
    assert.equal(seen.at(-1), 'completed');
    const r = resultOf(done!, 10);
    assert.match(r.content, /You said: in the background/);
    assert.match(r.reasoningSummary ?? '', /The user asked/);
    assert.equal(r.usage?.completion_tokens_details?.reasoning_tokens, 192);
    assert.equal(r.finishReason, 'stop');
  });

  it('a webhook delivery for the response wakes the follower from its wait', async () => {
    const receiver = await startReceiver();
    const ep = await subscribe(receiver.url);
    try {
      const started = await startBackground(input('gpt-4o', 'wake me'), modelProfile('gpt-4o'), []);
      const waker = new Waker();
      const ac = new AbortController();
      // Only the delivery can end this wait early: polls after the first one come a minute apart.
      const slowWaker = Object.assign(waker, { sleep: (_ms: number, signal: AbortSignal) => Waker.prototype.sleep.call(waker, 60_000, signal) });
      const following = followResponse(client, started.id, ac.signal, () => {}, slowWaker);
      await receiver.next(1, 10_000);
      const event = JSON.parse(receiver.received[0].body) as { type: string; data: { id: string } };
      assert.deepEqual([event.type, event.data.id], ['response.completed', started.id]);
      waker.wake();
      const done = await following;
      assert.equal(done?.status, 'completed');
    } finally {
      await unsubscribe(ep);
      await receiver.close();
    }
  });

  it('a cancelled reply ends as stopped; a failed one carries the service\'s error; closing stops following', async () => {
    const started = await startBackground(input('gpt-4o', 'cancel me'), modelProfile('gpt-4o'), []);
    assert.equal((await client.cancelResponse(started.id)).status, 'cancelled');
    const cancelled = await followResponse(client, started.id, new AbortController().signal, () => {});
    assert.equal(resultOf(cancelled!, 0).stopped, true);
    const failing = await startBackground(input('gpt-4o', '/fail'), modelProfile('gpt-4o'), []);
    const failed = await followResponse(client, failing.id, new AbortController().signal, () => {});
    assert.equal(failed?.status, 'failed');
    assert.equal(failed?.error?.code, 'server_error');
    const ac = new AbortController();
    const other = await startBackground(input('gpt-4o', 'left alone'), modelProfile('gpt-4o'), []);
    const following = followResponse(client, other.id, ac.signal, () => ac.abort());
    assert.equal(await following, undefined, 'the panel closed: no result, the response goes on');
  });

  it('the client resumes a background stream after the last event it saw, and deletes a response', async () => {
    const seqs: number[] = [];
    let id = '';
    for await (const ev of client.streamResponse({ model: 'gpt-4o', input: '/long 40', background: true, store: true })) {
      seqs.push(ev.sequence_number!);
      id = ev.response?.id ?? id;
      if (seqs.length === 2) break;
    }
    const acc = new ResponseAccumulator();
    for await (const ev of client.resumeResponse(id, seqs.at(-1)!)) {
      seqs.push(ev.sequence_number!);
      acc.add(ev);
    }
    assert.deepEqual(seqs, seqs.map((_, i) => i), 'no event twice, none lost');
    assert.equal(acc.status, 'completed');
    assert.equal(acc.content, resultOf(await client.getResponse(id), 0).content);
    await client.deleteResponse(id);
    await assert.rejects(client.getResponse(id), (e: unknown) => e instanceof ServiceError && e.status === 404);
  });

  async function subscribe(url: string): Promise<string> {
    const ep = await client.createWebhookEndpoint({ name: 'bg', url, event_types: ['response.completed'] });
    return ep.id;
  }
  function unsubscribe(id: string): Promise<void> {
    return client.deleteWebhookEndpoint(id);
  }
});
