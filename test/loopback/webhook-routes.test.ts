/**
 * Per-event routes end to end on loopback: the emulator delivers to the listener, which forwards
 * a batch event to the batch app and the rest to forwardTo; a replay takes the same route, and the
 * route is kept with the app's answer (the inspector shows it).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { childListener } from '../support/childListener';
import { replayToApp } from '../../src/webhooks/send/resend';
import { Listening } from '../../src/webhooks/session/listeningSession';
import type { Forwarded } from '../../src/webhooks/session/types';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { deliveryView } from '../../src/webhooks/inspect/deliveryView';
import { closeAll, emulatorClient } from '../support/emulatorClient';
import { emulatorEndpoints } from '../support/sessionEndpoints';
import { scratchDir } from '../support/scratchDir';
import { eventually, startReceiver } from '../support/receiver';

describe('webhook routes on loopback', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({ config: { delivery: { maxAttempts: 1, retryBaseMs: 100, timeoutMs: 3000 } } })));
  after(() => closeAll(client, emu));

  it('a batch event goes to the batch app, a response event to forwardTo, and a replay follows the same route', async () => {
    const main = await startReceiver();
    const batchApp = await startReceiver();
    const dir = scratchDir('routes-');
    const events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt') });
    const listening = new Listening({ createListener: (w) => childListener(w), events, defaultForwardTo: () => undefined });
    const forwarded: Forwarded[] = [];
    listening.onDidForward((f) => forwarded.push(f));
    const endpoints = emulatorEndpoints(() => client, new Map());
    try {
      const s = await listening.start({
        connection: { id: 'c1', label: 'Local service' },
        endpoints,
        endpoint: { mode: 'create', name: 'routes', eventTypes: ['batch.completed', 'response.completed'] },
        forwardTo: () => main.url,
        routes: () => ({ 'batch.*': batchApp.url }),
        undoEndpoint: true,
      });
      await client.testWebhookEndpoint(s.endpointId!, 'batch.completed');
      await client.testWebhookEndpoint(s.endpointId!, 'response.completed');
      await eventually(() => forwarded.length >= 2 || undefined, undefined, 'both forwards to end');
      const byType = new Map(forwarded.map((f) => [f.record.eventType, f.forward]));
      assert.deepEqual([byType.get('batch.completed')?.url, byType.get('batch.completed')?.route], [batchApp.url, 'batch.*']);
      assert.deepEqual([byType.get('response.completed')?.url, byType.get('response.completed')?.route], [main.url, undefined]);
      assert.equal(batchApp.received.length, 1, 'the batch app got the batch event only');
      assert.match(batchApp.received[0].body, /"batch\.completed"/);
      assert.equal(main.received.length, 1);
      assert.match(main.received[0].body, /"response\.completed"/);

      const batch = forwarded.find((f) => f.record.eventType === 'batch.completed')!.record;
      const route = listening.forwardRoute(batch);
      assert.deepEqual(route, { url: batchApp.url, pattern: 'batch.*' });
      const answer = await replayToApp(batch, listening.knownSecrets(), route!);
      assert.deepEqual([answer.kind, answer.status, answer.url, answer.route], ['replay', 200, batchApp.url, 'batch.*']);
      assert.equal(batchApp.received.length, 2, 'the replay went to the batch app too');
      events.replayed(batch.id, answer);
      const view = deliveryView(events.get(batch.id)!);
      assert.deepEqual(view.answers.map((a) => a.route), ['batch.*', 'batch.*'], 'the inspector is told the route of each answer');
      await s.undo();
    } finally {
      await listening.stop();
      listening.dispose();
      events.dispose();
      await main.close();
      await batchApp.close();
    }
  });
});
