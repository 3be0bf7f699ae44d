/**
 * The webhook listener's own process (bundled as dist/webhook-listener.js, forked by
 * childListener.ts on the first listen): the public port, its flood bounds, signature checks,
 * dedupe and the forwards to a loopback app run here, so a flood or a fault on a port that faces the
 * internet can neither grow nor stall the extension host's isolate. The host stays the owner of the
 * kept records: every verdict goes to it, batched, and it says where each verified delivery goes.
 * Plain Node: no `vscode` here.
 */
import { forwardDelivery } from '../send/forward';
import { deliveredFields } from '../store/delivered';
import { IdWindow, type DeliveryRecord, type KnownSecret } from '../store/records';
import type { ChildBatch, FromChild, ToChild } from './childProtocol';
import { WebhookListener } from './listener';

/** A batch waits this long for others to join it, or until it holds MAX_BATCH items. */
const BATCH_MS = 20;
const MAX_BATCH = 500;
/** Verified deliveries held for the host's route answer (it answers each batch at once); the oldest go first past it. */
const MAX_HELD = 2_000;
/** After "stop": how long forwards under way may take to finish before the process ends anyway. */
const STOP_GRACE_MS = 15_000;

let listener: WebhookListener | undefined;
let secrets: KnownSecret[] = [];
const held = new Map<string, { body: Buffer; headers: Record<string, string> }>();
let inflight = 0;
/** Stopped (or failed to start): the process ends once everything for the host is sent. */
let stopped = false;
/** Messages handed to the channel and not yet written: exiting earlier would lose them. */
let unsent = 0;
let batch: ChildBatch | undefined;
/** The batch's records as JSON, encoded once here: the host stores these bytes as they are. */
let jsons: string[] = [];
let batchTimer: NodeJS.Timeout | undefined;

function send(m: FromChild): void {
  if (!process.connected) return;
  unsent++;
  process.send!(m, () => {
    unsent--;
    exitWhenDone();
  });
}

function flush(): void {
  clearTimeout(batchTimer);
  const b = batch;
  batch = undefined;
  if (b && jsons.length) b.bytes = Buffer.from(jsons.join(''), 'utf8');
  jsons = [];
  if (b) send(b);
  exitWhenDone();
}

function delivered(record: DeliveryRecord): void {
  const json = JSON.stringify(record);
  jsons.push(json);
  add('delivered', deliveredFields(record, Buffer.byteLength(json, 'utf8')));
}

function add<K extends 'delivered' | 'forwarded' | 'here'>(kind: K, item: ChildBatch[K][number]): void {
  if (!batch) {
    batch = { t: 'batch', delivered: [], forwarded: [], here: [] };
    batchTimer = setTimeout(flush, BATCH_MS);
  }
  (batch[kind] as Array<typeof item>).push(item);
  if (batch.delivered.length + batch.forwarded.length + batch.here.length >= MAX_BATCH) flush();
}

function exitWhenDone(): void {
  if (stopped && !batch && !inflight && !held.size && !unsent) process.exit(0);
}

async function start(m: Extract<ToChild, { t: 'start' }>): Promise<void> {
  secrets = m.secrets;
  const dedupe = new IdWindow();
  for (const id of m.ids) dedupe.add(id);
  listener = new WebhookListener({
    ...m.settings,
    secrets: () => secrets,
    dedupe,
    onDelivery: delivered,
    keepForForward: (record, body, headers) => {
      held.set(record.id, { body, headers });
      if (held.size > MAX_HELD) held.delete(held.keys().next().value!);
    },
  });
  try {
    const url = await listener.start();
    send({ t: 'listening', url, port: listener.port });
  } catch (err) {
    stopped = true;
    send({ t: 'failed', message: (err as Error).message, code: (err as NodeJS.ErrnoException).code });
  }
}

function route(m: Extract<ToChild, { t: 'routes' }>): void {
  for (const r of m.routes) {
    const h = held.get(r.id);
    if (!h) continue;
    held.delete(r.id);
    if (!r.route) continue;
    if (!r.direct) {
      add('here', { id: r.id, body: h.body.toString('base64'), headers: h.headers });
      continue;
    }
    inflight++;
    void forwardDelivery({ url: r.route.url, route: r.route.pattern, headers: h.headers, body: h.body })
      .then((forward) => add('forwarded', { id: r.id, forward }))
      .finally(() => {
        inflight--;
        exitWhenDone();
      });
  }
  exitWhenDone();
}

async function stop(): Promise<void> {
  setTimeout(() => process.exit(0), STOP_GRACE_MS);
  // Every delivery answered is handed over before the host hears "stopped".
  await listener?.stop();
  flush();
  send({ t: 'stopped' });
  stopped = true;
  exitWhenDone();
}

process.on('message', (m: ToChild) => {
  if (m.t === 'start') void start(m);
  else if (m.t === 'secrets') {
    secrets = m.secrets;
    send({ t: 'secrets', n: m.n });
  } else if (m.t === 'routes') route(m);
  else if (m.t === 'stop') void stop();
});
// The extension host went (deactivated, crashed, killed): nothing of ours outlives it.
process.on('disconnect', () => process.exit(0));
