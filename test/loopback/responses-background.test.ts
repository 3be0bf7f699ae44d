/** Background replies followed to the end: polling with backoff, woken by a webhook delivery, cancelled. */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Waker, followResponse, resultOf, startBackground } from '../../src/chat/engine/background';
import type { RunRequest as RunInput } from '../../src/chat/engine/runner';
import { neutralMessages } from '../../src/chat/engine/messages';
import { PANEL_RUN } from '../../src/chat/engine/options';
import type { Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { ResponseAccumulator, readResponseStream } from '../../src/service/responsesStream';
import { startReceiver } from '../support/receiver';
import { scripted } from '../support/scriptedServer';
import { closeAll, emulatorClient } from '../support/emulatorClient';

/** A waker that does not wait, and remembers each wait the follower asked for. */
class CountingWaker extends Waker {
  readonly waits: number[] = [];
  override sleep(ms: number): Promise<void> {
    this.waits.push(ms);
    return Promise.resolve();
  }
}

describe('background replies on the Responses API', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => {
    const delivery = { maxAttempts: 1, retryBaseMs: 50, timeoutMs: 2000 };
    // Queued long enough for the follower's first look to find it queued on a loaded machine (50 ms did not).
    ({ emu, client } = await emulatorClient({ config: { responseQueuedMs: 400, responseInProgressMs: 150, delivery } }));
  });
  after(async () => {
    await closeAll(client, emu);
  });
  /** The emulator's v1 responses route asked directly: the extension itself never resumes nor deletes a response. */
  const responsesRoute = (path: string, method = 'GET') => fetch(`${emu.url}/openai/v1/responses/${path}`, { method, headers: { 'api-key': emu.apiKey } });

  const input = (deployment: string, text: string): RunInput => ({
    client,
    deployment,
    messages: neutralMessages([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: text }]),
    sampling: {},
    route: 'v1',
    signal: new AbortController().signal,
    onText: () => {},
  });

  it('starts queued and is followed to its reply, reasoning summary and usage included', async () => {
    const started = await startBackground(input('gpt-5-codex', 'in the background'), PANEL_RUN, []);
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
      const started = await startBackground(input('gpt-4o', 'wake me'), PANEL_RUN, []);
      const waker = new Waker();
      const ac = new AbortController();
      // Only the delivery can end this wait early: polls after the first one come a minute apart.
      const slowWaker = Object.assign(waker, { sleep: (_ms: number, signal: AbortSignal) => Waker.prototype.sleep.call(waker, 60_000, signal) });
      const following = followResponse(client, started.id, ac.signal, () => {}, slowWaker);
      await receiver.next(1);
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
    const started = await startBackground(input('gpt-4o', 'cancel me'), PANEL_RUN, []);
    assert.equal((await client.cancelResponse(started.id)).status, 'cancelled');
    const cancelled = await followResponse(client, started.id, new AbortController().signal, () => {});
    assert.equal(resultOf(cancelled!, 0).stopped, true);
    const failing = await startBackground(input('gpt-4o', '/fail'), PANEL_RUN, []);
    const failed = await followResponse(client, failing.id, new AbortController().signal, () => {});
    assert.equal(failed?.status, 'failed');
    assert.equal(failed?.error?.code, 'server_error');
    const ac = new AbortController();
    const other = await startBackground(input('gpt-4o', 'left alone'), PANEL_RUN, []);
    const following = followResponse(client, other.id, ac.signal, () => ac.abort());
    assert.equal(await following, undefined, 'the panel closed: no result, the response goes on');
  });

  it('a background stream resumed after the last event it saw repeats and loses none, and a deleted response is gone', async () => {
    const seqs: number[] = [];
    let id = '';
    for await (const ev of client.streamResponse({ model: 'gpt-4o', input: '/long 40', background: true, store: true })) {
      seqs.push(ev.sequence_number!);
      id = ev.response?.id ?? id;
      if (seqs.length === 2) break;
    }
    const acc = new ResponseAccumulator();
    const resumed = await responsesRoute(`${id}?stream=true&starting_after=${seqs.at(-1)}`);
    for await (const ev of readResponseStream(resumed.body!, 'emulator')) {
      seqs.push(ev.sequence_number!);
      acc.add(ev);
    }
    assert.deepEqual(seqs, seqs.map((_, i) => i), 'no event twice, none lost');
    assert.equal(acc.status, 'completed');
    assert.equal(acc.content, resultOf(await client.getResponse(id), 0).content);
    await responsesRoute(id, 'DELETE');
    await assert.rejects(client.getResponse(id), (e: unknown) => e instanceof ServiceError && e.status === 404);
  });

  it('polls slow down to one every 5 s, and a response that never finishes is given up after 2000 checks with a message saying what to do', async () => {
    // A service that keeps the response queued: the emulator's own queue timer would outlive the test.
    const queued = JSON.stringify({ id: 'resp_stuck', object: 'response', created_at: 1, status: 'queued', model: 'gpt-4o', background: true, output: [], usage: null, error: null });
    const stuck = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(queued));
    await new Promise<void>((r) => stuck.listen(0, '127.0.0.1', r));
    const c = new AzureOpenAIClient({ endpoint: `http://127.0.0.1:${(stuck.address() as AddressInfo).port}`, auth: { kind: 'apiKey', apiKey: 'k' } });
    try {
      const waker = new CountingWaker();
      let checks = 0;
      await assert.rejects(followResponse(c, 'resp_stuck', new AbortController().signal, () => checks++, waker), /still not finished after 2000 checks\. Send the message again, or look it up later/);
      assert.equal(checks, 2000);
      assert.deepEqual(waker.waits.slice(0, 7), [500, 1000, 2000, 3000, 5000, 5000, 5000]);
      assert.ok(waker.waits.every((ms, i) => i < 5 || ms === 5000), 'never faster than every 5 s after the first checks');
    } finally {
      await c.close();
      stuck.closeAllConnections();
      await new Promise((r) => stuck.close(r));
    }
  });

  it('closing the panel while a check is on its way stops following, without an error', async () => {
    const ac = new AbortController();
    const server = await scripted([() => ac.abort()]);
    const c = new AzureOpenAIClient({ endpoint: server.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    try {
      assert.equal(await followResponse(c, 'resp_1', ac.signal, () => assert.fail('no status arrived')), undefined);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('a response the service no longer has is an error, not a silent stop', async () => {
    const started = await startBackground(input('gpt-4o', 'to be deleted'), PANEL_RUN, []);
    await responsesRoute(started.id, 'DELETE');
    await assert.rejects(
      followResponse(client, started.id, new AbortController().signal, () => {}),
      (e: unknown) => e instanceof ServiceError && e.status === 404,
    );
  });

  it('closing the panel during a wait, or as a status arrives, stops following at once and leaves no listener behind', async () => {
    const slow = { waker: new Waker() };
    const minuteWaits = Object.assign(slow.waker, { sleep: (_ms: number, signal: AbortSignal) => Waker.prototype.sleep.call(slow.waker, 60_000, signal) });
    const during = new AbortController();
    const started = await startBackground(input('gpt-4o', 'close during the wait'), PANEL_RUN, []);
    const following = followResponse(client, started.id, during.signal, () => setImmediate(() => during.abort()), minuteWaits);
    assert.equal(await following, undefined);
    const atStatus = new AbortController();
    assert.equal(await followResponse(client, started.id, atStatus.signal, () => atStatus.abort(), minuteWaits), undefined);
    const done = new AbortController();
    const finished = await followResponse(client, (await startBackground(input('gpt-4o', 'listeners'), PANEL_RUN, [])).id, done.signal, () => {});
    assert.equal(finished?.status, 'completed');
    assert.ok(getEventListeners(done.signal, 'abort').length <= 1, 'a long follow does not pile up listeners on the panel\'s signal');
  });

  it('a wake-up still cuts the wait short after an earlier wait\'s own timer has passed', async () => {
    const waker = new Waker();
    const signal = new AbortController().signal;
    const first = waker.sleep(20, signal);
    waker.wake();
    await first;
    let woken = false;
    const second = waker.sleep(60_000, signal).then(() => (woken = true));
    // Past the moment the first wait's timer would have fired.
    await new Promise((r) => setTimeout(r, 60));
    waker.wake();
    await new Promise((r) => setImmediate(r));
    assert.equal(woken, true);
    await second;
  });

  it('a rate limit on starting is the caller\'s to show (not retried unseen), and closing the panel cancels the start', async () => {
    const server = await scripted([(_q, res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '1000' }).end('{"error":{"code":"429","message":"Rate limit reached."}}')]);
    const c = new AzureOpenAIClient({ endpoint: server.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    try {
      await assert.rejects(startBackground({ ...input('gpt-4o', 'busy'), client: c }, PANEL_RUN, []), (e: unknown) => e instanceof ServiceError && e.status === 429 && e.retryAfterMs === 1000);
      assert.equal(server.hits(), 1);
    } finally {
      await c.close();
      await server.close();
    }
    const ac = new AbortController();
    const silent = await scripted([() => ac.abort()]);
    const s = new AzureOpenAIClient({ endpoint: silent.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    try {
      await assert.rejects(startBackground({ ...input('gpt-4o', 'never answered'), client: s, signal: ac.signal }, PANEL_RUN, []), (e: unknown) => e instanceof ServiceError && e.kind === 'aborted');
    } finally {
      await s.close();
      await silent.close();
    }
  });

  async function subscribe(url: string): Promise<string> {
    const ep = await client.createWebhookEndpoint({ name: 'bg', url, event_types: ['response.completed'] });
    return ep.id;
  }
  function unsubscribe(id: string): Promise<void> {
    return client.deleteWebhookEndpoint(id);
  }
});
