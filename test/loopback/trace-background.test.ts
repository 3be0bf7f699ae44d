/**
 * A background response's trace end to end on loopback: created on the emulator, followed with
 * polls a minute apart so only the emulator's response.completed delivery (through the real
 * listener, verified) can end the wait, that delivery forwarded to the user's app; the trace has
 * the creation, each status, the delivery that ended the wait and its forward with the app's answer.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Waker, followResponse, startBackground } from '../../src/chat/engine/background';
import { neutralMessages } from '../../src/chat/engine/messages';
import { PANEL_RUN } from '../../src/chat/engine/options';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { BackgroundTrace, DELIVERY, forwardOf } from '../../src/trace/backgroundTrace';
import { childListener } from '../support/childListener';
import { Listening } from '../../src/webhooks/session/listeningSession';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { closeAll, emulatorClient } from '../support/emulatorClient';
import { startReceiver } from '../support/receiver';
import { scratchDir } from '../support/scratchDir';
import { emulatorEndpoints } from '../support/sessionEndpoints';

describe('traces: a background response ended by a webhook delivery (emulator, listener, app)', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: { responseQueuedMs: 50, responseInProgressMs: 150, delivery: { maxAttempts: 1, retryBaseMs: 100, timeoutMs: 3000 } },
  })));
  after(() => closeAll(client, emu));

  const ask = (text: string) => ({
    ...{ client, deployment: 'gpt-4o', messages: neutralMessages([{ role: 'user', content: text }]), sampling: {}, route: 'v1' as const },
    ...{ signal: new AbortController().signal, onText: () => {} },
  });

  it('spans the creation, each status, the delivery that ended the wait and its forward to the app', async () => {
    const app = await startReceiver([202]);
    const dir = scratchDir('trace-background-');
    const events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt') });
    const listening = new Listening({ createListener: (w) => childListener(w), events, defaultForwardTo: () => undefined });
    try {
      const s = await listening.start({
        connection: { id: 'c1', label: 'Local service' },
        endpoints: emulatorEndpoints(() => client, new Map()),
        endpoint: { mode: 'create', name: 'background', eventTypes: ['response.completed'] },
        forwardTo: () => app.url,
        undoEndpoint: true,
      });
      const trace = new BackgroundTrace('gpt-4o', { captureContent: false });
      const request = ask('wake me');
      const t0 = Date.now();
      const started = await startBackground(request, PANEL_RUN, []);
      trace.created(t0, Date.now(), started);
      // Only the delivery can end this wait early: polls after the first come a minute apart.
      const waker = new Waker();
      const slow = Object.assign(waker, { sleep: (_ms: number, signal: AbortSignal) => Waker.prototype.sleep.call(waker, 60_000, signal) });
      // What the chat manager does with each verified response.* delivery for this response.
      const woke = events.onDidRecord((r) => {
        if (r.verdict !== 'verified' || !r.body.includes(started.id)) return;
        trace.wake(r);
        waker.wake();
      });
      const done = await followResponse(client, started.id, new AbortController().signal, (status) => trace.saw(status), slow);
      woke.dispose();
      assert.equal(done?.status, 'completed');
      assert.ok(trace.endedBy, 'a delivery ended the wait');
      const forward = await forwardOf(events, trace.endedBy.id, 10_000);
      assert.equal(forward?.status, 202, "the app's answer came");
      const t = trace.finish(done, { forward });
      await s.undo();

      const [root, ...spans] = t.spans;
      const names = spans.map((x) => x.name);
      assert.equal(t.kind, 'background');
      assert.equal(names[0], 'create response gpt-4o');
      assert.equal(spans[0].attributes['gen_ai.response.id'], started.id);
      assert.ok(names.includes('response queued') || names.includes('response in_progress'), names.join(', '));
      assert.deepEqual(names.slice(-2), ['webhook response.completed', 'forward to app']);
      const [delivery, forwarded] = spans.slice(-2);
      assert.equal(delivery.kind, 'server');
      assert.deepEqual([delivery.attributes[DELIVERY.id], delivery.attributes[DELIVERY.endedWait], delivery.attributes[DELIVERY.eventType]], [trace.endedBy.id, true, 'response.completed']);
      assert.deepEqual([forwarded.attributes['url.full'], forwarded.attributes['http.response.status_code'], forwarded.error], [app.url, 202, undefined]);
      assert.ok(forwarded.end >= forwarded.start && forwarded.start >= delivery.start);
      assert.equal(root.attributes['aoai_workbench.response.ended_by'], 'webhook');
      assert.ok((root.attributes['gen_ai.usage.output_tokens'] as number) > 0);
      assert.equal(app.received.length, 1, 'the app got the delivery once');
    } finally {
      await listening.stop();
      listening.dispose();
      events.dispose();
      await app.close();
    }
  });

  it('a response found final by a poll names no delivery; a failed one is an error', async () => {
    const request = ask('/fail');
    const trace = new BackgroundTrace('gpt-4o', { captureContent: false });
    const started = await startBackground(request, PANEL_RUN, []);
    trace.created(Date.now(), Date.now(), started);
    const done = await followResponse(client, started.id, new AbortController().signal, (status) => trace.saw(status));
    const t = trace.finish(done, {});
    assert.equal(done?.status, 'failed');
    assert.equal(t.spans[0].attributes['aoai_workbench.response.ended_by'], 'poll');
    assert.ok(t.spans[0].error, 'the failure is on the root');
    assert.ok(!t.spans.some((x) => x.kind === 'server'));
  });
});
