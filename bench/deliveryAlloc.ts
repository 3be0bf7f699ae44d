/**
 * Investigation (issue #25), not a bench row: what the listener's path allocates per delivery in
 * plain Node: the listener, WebhookEvents and its files, 1,000 signed deliveries over 4 keep-alive
 * connections from a child process, the sampling heap profiler counting collected objects too.
 *
 *   npx tsx bench/deliveryAlloc.ts [deliveries] [profile.heapprofile]
 *
 * Open the profile in Chrome's DevTools (Memory tab) to see it by function.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookListener } from '../src/webhooks/receive/listener';
import { signedHeaders } from '../src/webhooks/signature';
import { WebhookEvents } from '../src/webhooks/store/webhookEvents';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** The sender (a child process, so its allocations are not counted). */
async function send(url: string, n: number, tag: string): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      const body = JSON.stringify({ id: `evt_${tag}_${i}`, object: 'event', created_at: Math.floor(Date.now() / 1000), type: 'response.completed', data: { id: `resp_${tag}_${i}` } });
      const headers = { ...signedHeaders(SECRET, `msg_${randomUUID()}`, body), 'content-type': 'application/json' };
      await new Promise<void>((resolve, reject) => {
        const req = request(`${url}/webhook`, { method: 'POST', agent, headers }, (res) => {
          res.resume().on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`answered ${res.statusCode}`))));
        });
        req.on('error', reject).end(body);
      });
    }
  };
  await Promise.all([one(), one(), one(), one()]);
  agent.destroy();
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1000);
  const dir = mkdtempSync(join(tmpdir(), 'delivery-alloc-'));
  const events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids') });
  await events.load();
  let got = 0;
  const listener = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret: SECRET }], dedupe: events.dedupe, onDelivery: (r) => (events.record(r), got++) });
  const url = await listener.start();
  const burst = async (count: number, tag: string) => {
    const child = fork(__filename, ['--send', url, String(count), tag], { stdio: 'inherit' });
    await new Promise((r) => child.on('exit', r));
    for (let i = 0; i < 500 && got < count; i++) await new Promise((r) => setTimeout(r, 10));
    await events.flush();
    got = 0;
  };
  await burst(200, 'warm');
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) => new Promise<T>((res, rej) => session.post(method, params, (e, r) => (e ? rej(e) : res(r as T))));
  await post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await burst(n, 'run');
  const { profile } = await post<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
  const total = (node: ProfileNode): number => node.selfSize + node.children.reduce((s, c) => s + total(c), 0);
  console.log(`${n} deliveries: ${(total(profile.head) / 1e6).toFixed(2)} MB sampled, ${(total(profile.head) / n / 1024).toFixed(1)} KB a delivery`);
  if (process.argv[3]) writeFileSync(process.argv[3], JSON.stringify(profile));
  await listener.stop();
  events.dispose();
  rmSync(dir, { recursive: true, force: true });
}

interface ProfileNode {
  selfSize: number;
  children: ProfileNode[];
}

if (process.argv[2] === '--send') void send(process.argv[3]!, Number(process.argv[4]), process.argv[5]!);
else void main();
