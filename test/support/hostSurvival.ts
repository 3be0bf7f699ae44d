/**
 * A host of its own for a heap test (forked with a small young generation, as the extension host's
 * is before a chat has grown it): the listener's process, `WebhookEvents` wired as Listening wires
 * it, a burst on loopback; reports what survived V8's scavenges during the burst (GCProfiler).
 */
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GCProfiler } from 'node:v8';
import { generateSecret } from '../../src/webhooks/signature';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { childListener } from './childListener';
import { pipelinedDeliveries } from './pipelinedDeliveries';

export interface SurvivalReport {
  survivedBytes: number;
  scavenges: number;
  kept: number;
  newest: { eventId?: string; verdict: string; frozen: boolean };
}

type Space = { spaceName: string; spaceUsedSize: number };
interface GcEntry {
  gcType: string;
  beforeGC: { heapSpaceStatistics: Space[] };
  afterGC: { heapSpaceStatistics: Space[] };
}
const used = (spaces: Space[], name: string) => spaces.find((x) => x.spaceName === name)?.spaceUsedSize ?? 0;

async function main(n: number): Promise<SurvivalReport> {
  const dir = mkdtempSync(join(tmpdir(), 'host-survival-'));
  const secret = generateSecret();
  const events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt'), maxStored: 1000 });
  await events.load();
  let arrived = 0;
  // What the Events view and the status bar follow.
  events.onDidArrive(() => arrived++);
  const listener = childListener({
    secrets: () => [{ endpointId: 'we_1', secret }],
    forwardTo: () => undefined,
    dedupe: events.dedupe,
    onDelivery: (r) => events.record(r),
    onDelivered: (d) => events.recordBytes(d),
    onForwarded: () => undefined,
  });
  await listener.start();
  const send = async (wire: Buffer, total: number) => {
    const socket = connect(listener.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(wire);
    // Bounded: 90 s at 10 ms.
    for (let i = 0; i < 9000 && arrived < total; i++) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    await events.flush();
  };
  await send(pipelinedDeliveries('warm', 100, secret), 100);
  const wire = pipelinedDeliveries('burst', n, secret);
  arrived = 0;
  const profiler = new GCProfiler();
  profiler.start();
  await send(wire, n);
  const { statistics } = profiler.stop() as unknown as { statistics: GcEntry[] };
  const scavenges = statistics.filter((e) => e.gcType === 'Scavenge');
  // Left in new space, plus what each scavenge promoted to old space.
  const promoted = (e: GcEntry) => Math.max(0, used(e.afterGC.heapSpaceStatistics, 'old_space') - used(e.beforeGC.heapSpaceStatistics, 'old_space'));
  const survivedBytes = scavenges.reduce((sum, e) => sum + used(e.afterGC.heapSpaceStatistics, 'new_space') + promoted(e), 0);
  const kept = events.list();
  const newest = { eventId: kept[0]?.eventId, verdict: String(kept[0]?.verdict), frozen: Object.isFrozen(kept[0]) };
  const report = { survivedBytes, scavenges: scavenges.length, kept: kept.length, newest };
  await listener.stop();
  events.dispose();
  rmSync(dir, { recursive: true, force: true });
  return report;
}

if (process.send) void main(Number(process.argv[2] ?? 2000)).then((r) => process.send!(r, () => process.exit(0)));
