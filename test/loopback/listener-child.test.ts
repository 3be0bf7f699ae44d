/**
 * The listener in a process of its own, as the extension runs it: deliveries through the child are
 * recorded verified by the host's `WebhookEvents`, forwarded to the app (by the child to a loopback
 * app, by the host otherwise), deduplicated against the host's ids; the child ends with its
 * parent, and a child that dies is reported and listening can start again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TunnelProvider } from '../../src/tunnels/tunnel';
import { Listening, type SessionEndpoints } from '../../src/webhooks/session/listeningSession';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import type { ChildListener } from '../../src/webhooks/receive/childListener';
import { childListener } from '../support/childListener';
import { eventually, startReceiver } from '../support/receiver';
import { scratchDir } from '../support/scratchDir';
import { processAlive } from '../support/processes';

const conn = { id: 'c1', label: 'Local service' };

/** One endpoint, in memory, with its secret. */
function oneEndpoint(secret: string): SessionEndpoints {
  let url = '';
  return {
    all: async () => [{ id: 'we_1', name: 'child', url, event_types: [] } as never],
    create: async () => ({ id: 'we_1' }) as never,
    update: async (_id, u) => void (url = u),
    remove: async () => undefined,
    secretOf: async () => secret,
  };
}


async function post(url: string, secret: string, webhookId: string, type = 'batch.completed'): Promise<number> {
  const body = JSON.stringify({ object: 'event', id: `evt_${webhookId}`, type, created_at: 1, data: { id: 'batch_1' } });
  const res = await fetch(`${url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, webhookId, body) }, body });
  await res.arrayBuffer();
  return res.status;
}

describe('the listener in its own process', function () {
  this.timeout(60_000);
  let events: WebhookEvents;
  let listening: Listening;
  let made: ChildListener[];
  let forwardTo: string | undefined;
  const secret = generateSecret();

  beforeEach(() => {
    const dir = scratchDir('listener-child-');
    events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt') });
    made = [];
    forwardTo = undefined;
    listening = new Listening({
      createListener: (wiring) => {
        const l = childListener(wiring);
        made.push(l);
        return l;
      },
      events,
      defaultForwardTo: () => undefined,
    });
  });
  afterEach(async () => {
    await listening.stop();
    listening.dispose();
    events.dispose();
  });

  const start = () => listening.start({ connection: conn, endpoints: oneEndpoint(secret), endpoint: { mode: 'update', endpointId: 'we_1' }, forwardTo: () => forwardTo });

  it('deliveries through the child reach WebhookEvents verified, forwarded to a loopback app by the child and to any other by the host, and a redelivery is a duplicate', async () => {
    const app = await startReceiver([202, 203]);
    try {
      forwardTo = app.url;
      const s = await start();
      const pid = made[0].pid!;
      assert.ok(pid && pid !== process.pid && processAlive(pid), 'a process of its own');
      assert.equal(await post(s.state.localUrl, secret, 'msg_1'), 200);
      assert.equal(await post(s.state.localUrl, secret, 'msg_1'), 200, 'the redelivery is acknowledged');
      assert.equal(await post(s.state.localUrl, 'whsec_' + Buffer.alloc(24, 7).toString('base64'), 'msg_2'), 400, 'another secret: rejected');
      const verified = await eventually(
        () => events.list().find((r) => r.verdict === 'verified' && r.forward && r.duplicates),
        undefined,
        'the verified delivery, its forward and its duplicate count',
      );
      assert.deepEqual([verified.webhookId, verified.endpointId, verified.eventType, verified.forward?.status, verified.duplicates?.count], ['msg_1', 'we_1', 'batch.completed', 202, 1]);
      assert.equal(verified.trace?.tried[0]?.matched, true, 'the trace made in the child');
      assert.equal(app.received.length, 1, 'forwarded once');
      assert.equal(app.received[0].headers['webhook-id'], 'msg_1');
      assert.ok(events.list().some((r) => r.verdict === 'rejected'));
      // Not a loopback URL by the child's rule (`*.localhost` is pinned to 127.0.0.1 by the host's transport): the host forwards the child's bytes.
      forwardTo = app.url.replace('127.0.0.1', 'app.localhost');
      assert.equal(await post(s.state.localUrl, secret, 'msg_3'), 200);
      const viaHost = await eventually(() => events.list().find((r) => r.webhookId === 'msg_3' && r.forward), undefined, 'the forward the host made');
      assert.deepEqual([viaHost.forward?.status, app.received.length, app.received[1].body.includes('evt_msg_3')], [203, 2, true]);
      assert.ok(!JSON.stringify(events.list()).includes(secret));
    } finally {
      await app.close();
    }
  });

  it('a webhook-id the host processed before the child started is a duplicate in the child', async () => {
    events.dedupe.add('msg_old');
    const s = await start();
    assert.equal(await post(s.state.localUrl, secret, 'msg_old'), 200);
    const row = await eventually(() => events.list().find((r) => r.webhookId === 'msg_old'), undefined, 'the counted redelivery');
    assert.equal(row.verdict, 'duplicate');
  });

  it('a killed child is reported, listening stops, and a new start listens again', async () => {
    const failures: Error[] = [];
    listening.onDidFail((e) => failures.push(e));
    const first = await start();
    process.kill(made[0].pid!, 'SIGKILL');
    const failure = await eventually(() => failures[0], undefined, 'the failure to be reported');
    assert.match(failure.message, /ended unexpectedly \(signal SIGKILL\)/);
    assert.equal(listening.state, undefined, 'not listening any more');
    assert.ok((await fetch(first.state.localUrl).catch((e: Error) => e)) instanceof Error, 'nothing listens at the old port');
    const again = await start();
    assert.equal(made.length, 2);
    assert.equal(await post(again.state.localUrl, secret, 'msg_again'), 200);
    await eventually(() => events.list().find((r) => r.webhookId === 'msg_again' && r.verdict === 'verified'), undefined, 'the delivery after the restart');
  });

  it('a child killed while its tunnel opens: the start fails with the reason, the tunnel is closed, nothing is left listening', async () => {
    let tunnelStopped = false;
    const tunnel: TunnelProvider = {
      id: 'manual',
      label: 'Stand-in tunnel',
      check: async () => ({ ok: true }),
      // The child dies while the tunnel comes up; the tunnel is up only after the host heard of it.
      start: async () => {
        const failed = new Promise<void>((resolve) => made[0].onDidFail(() => resolve()));
        process.kill(made[0].pid!, 'SIGKILL');
        await failed;
        let closed!: () => void;
        return { url: 'https://stand-in.invalid', closed: new Promise<void>((r) => (closed = r)), stop: async () => void ((tunnelStopped = true), closed()) };
      },
    };
    const started = listening.start({ connection: conn, endpoints: oneEndpoint(secret), tunnel, endpoint: { mode: 'skip' }, forwardTo: () => undefined });
    await assert.rejects(started, /ended unexpectedly \(signal SIGKILL\)/);
    assert.deepEqual([listening.state, tunnelStopped], [undefined, true]);
  });

  it('the child exits when its parent goes, even killed', async () => {
    // A parent of its own to kill: it starts a child listener and prints the child's pid.
    const script = [
      "const { childListener } = require('./test/support/childListener.ts');",
      "const l = childListener({ secrets: () => [], forwardTo: () => undefined, dedupe: { has: () => false, add() {} }, onDelivery() {}, onForwarded() {} });",
      "l.start().then(() => console.log('pid', l.pid));",
    ].join('\n');
    const parent = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: join(__dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const pid = Number(await eventually(() => /pid (\d+)/.exec(out)?.[1], undefined, "the parent's child listening"));
    assert.ok(processAlive(pid));
    parent.kill('SIGKILL');
    await eventually(() => (processAlive(pid) ? undefined : true), 10_000, 'the child to exit after its parent was killed');
  });
});
