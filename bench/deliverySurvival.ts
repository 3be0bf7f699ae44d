/**
 * Investigation (issue #35), not a bench row: what a burst of deliveries leaves surviving V8's
 * scavenges in plain Node. V8 doubles the young generation once the bytes that survived
 * scavenges (promoted + copied within new space) since its last growth exceed its capacity, so
 * that, not what is allocated, decides whether a burst grows the extension host.
 *
 *   npx tsx bench/deliverySurvival.ts [deliveries=10000] [per second=0: as fast as answered]
 *
 * A runner process (the listener, WebhookEvents and its files, and what the Events view and the
 * status bar do per burst: the list once a second, the top rows, the count) takes the deliveries
 * from a sender process, under --trace-gc-nvp; this process sums the scavenges of the burst.
 * SURVIVAL_NODE: the node to run (e.g. code-server's); SURVIVAL_FLAGS: more V8 flags (e.g.
 * `--min-semi-space-size=32`, the young generation the host has after 200 chat replies);
 * SURVIVAL_SNAPSHOT=file: a heap snapshot half-way through the burst (it collects garbage first);
 * SURVIVAL_PROFILE=file: a sampled heap profile of the burst's allocations that no scavenge collected.
 */
import { fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { signedHeaders } from '../src/webhooks/signature';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const USER_AGENT = 'OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)';

/** The sender: 4 keep-alive connections, paced when asked, like the host bench's emulator. */
async function send(url: string, n: number, rate: number, tag: string): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const t0 = Date.now();
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      const due = rate ? t0 + (i * 1000) / rate - Date.now() : 0;
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      const created = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', created_at: created, type: 'response.completed', data: { id: `resp_${tag}_${i}` } });
      const id = `msg_${randomUUID().replace(/-/g, '')}`;
      const headers = { 'user-agent': USER_AGENT, 'content-type': 'application/json', ...signedHeaders(SECRET, id, body, created * 1000) };
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

const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!;
const mark = (what: string, extra: object = {}) => {
  const ns = newSpace();
  const m = process.memoryUsage();
  console.log(`@@${what} ${JSON.stringify({ newSpace: ns.space_size, newUsed: ns.space_used_size, rss: m.rss, heapUsed: m.heapUsed, ...extra })}`);
};

/** The runner: the product's path for a delivery, and what the VS Code layer does per burst. */
async function run(n: number, rate: number): Promise<void> {
  const { WebhookListener } = await import('../src/webhooks/receive/listener');
  const { WebhookEvents } = await import('../src/webhooks/store/webhookEvents');
  const { BurstGate } = await import('../src/vscode/webhooks/burst');
  const dir = mkdtempSync(join(tmpdir(), 'delivery-survival-'));
  const events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids') });
  await events.load();
  // The Events view's redraw (a node per row kept by id, holding the row's summary; its 100 top rows
  // drawn, each record decoded for its row) and the status bar's count.
  let nodes = new Map<string, { summary: unknown }>();
  let rows: string[] = [];
  const view = new BurstGate(() => {
    const previous = nodes;
    nodes = new Map();
    const summaries = events.summaries();
    for (const s of summaries) nodes.set(s.id, previous.get(s.id) ?? { summary: s });
    rows = summaries.slice(0, 100).map((s) => s.record()).map((r) => `${r.eventType ?? 'delivery'} ${r.verdict} ${new Date(r.receivedAt).toLocaleTimeString()}`);
  }, 50, 1_000);
  let status = '';
  const statusGate = new BurstGate(() => (status = `Listening · ${events.size}`));
  events.onDidRecord(() => (view.schedule(), statusGate.schedule()));
  let got = 0;
  let onGot: (() => void) | undefined;
  const listener = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret: SECRET }], dedupe: events.dedupe, onDelivery: (r) => (events.record(r), got++, onGot?.()) });
  const url = await listener.start();
  const burst = async (count: number, perSecond: number, tag: string) => {
    got = 0;
    const child = fork(__filename, ['--send', url, String(count), String(perSecond), tag], { stdio: 'inherit', execArgv: ['--import', 'tsx'] });
    await new Promise((r) => child.on('exit', r));
    for (let i = 0; i < 1000 && got < count; i++) await new Promise((r) => setTimeout(r, 10));
    await events.flush();
  };
  await burst(200, 0, 'warm');
  global.gc?.();
  mark('start');
  const snapshot = process.env.SURVIVAL_SNAPSHOT;
  if (snapshot) onGot = () => got === Math.floor(n / 2) && (writeHeapSnapshot(snapshot), undefined);
  // What survived a scavenge, by where it was allocated: the sampling heap profiler keeping only what no scavenge collected.
  const profile = process.env.SURVIVAL_PROFILE;
  const session = profile ? new (await import('node:inspector')).Session() : undefined;
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session!.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));
  if (session) {
    session.connect();
    await post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
  }
  const t0 = Date.now();
  await burst(n, rate, 'run');
  if (session) {
    const { profile: sampled } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(profile!, JSON.stringify(sampled));
    session.disconnect();
  }
  mark('end', { seconds: (Date.now() - t0) / 1000, kept: events.size, rows: rows.length, status });
  global.gc?.();
  mark('gc');
  await listener.stop();
  view.dispose();
  statusGate.dispose();
  events.dispose();
  rmSync(dir, { recursive: true, force: true });
}

interface Mark {
  newSpace: number;
  rss: number;
  heapUsed: number;
  seconds?: number;
}

/** Starts the runner under --trace-gc-nvp and sums the burst's scavenges. */
async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 10_000);
  const rate = Number(process.argv[3] ?? 0);
  const node = process.env.SURVIVAL_NODE ?? process.execPath;
  const flags = (process.env.SURVIVAL_FLAGS ?? '').split(' ').filter(Boolean);
  const args = ['--max-old-space-size=4096', '--trace-gc-nvp', '--expose-gc', ...flags, '--import', 'tsx', __filename, '--run', String(n), String(rate)];
  const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const marks: Record<string, Mark> = {};
  let inBurst = false;
  const sum = { scavenges: 0, promoted: 0, copied: 0, allocated: 0, fullGcs: 0, promotedByFull: 0, capacities: new Set<number>() };
  for await (const line of createInterface({ input: child.stdout! })) {
    const m = /^@@(\w+) (.*)$/.exec(line);
    if (m) {
      marks[m[1]] = JSON.parse(m[2]) as Mark;
      inBurst = m[1] === 'start';
      continue;
    }
    if (!inBurst || !line.includes(' gc=')) continue;
    const field = (name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    if (/ gc=s /.test(line)) {
      sum.scavenges++;
      sum.promoted += field('promoted');
      sum.copied += field('new_space_survived');
      sum.capacities.add(field('new_space_capacity'));
    } else {
      // A full collection promotes whatever young objects are alive: survivors too.
      sum.fullGcs++;
      sum.promotedByFull += field('promoted');
    }
    sum.allocated += field('allocated');
  }
  const mb = (b: number) => (b / 1048576).toFixed(1);
  const { start, end, gc } = marks;
  if (!start || !end || !gc) throw new Error('the runner did not finish');
  console.log(`${n} deliveries${rate ? ` at ${rate}/s` : ''} in ${end.seconds} s, ${flags.join(' ') || 'no extra flags'}`);
  const perDelivery = (b: number) => Math.round(b / n);
  console.log(
    `  survived scavenges: ${perDelivery(sum.promoted + sum.copied)} B a delivery (promoted ${perDelivery(sum.promoted)}, copied ${perDelivery(sum.copied)}), ` +
      `${mb(sum.promoted + sum.copied)} MB in ${sum.scavenges} scavenges; ${sum.fullGcs} full GCs promoted ${perDelivery(sum.promotedByFull)} B a delivery more; ` +
      `${Math.round(sum.allocated / n / 1024)} KB allocated a delivery`,
  );
  console.log(`  semi-space capacity during the burst: ${[...sum.capacities].map(mb).join(', ')} MB; new space ${mb(start.newSpace)} → ${mb(end.newSpace)} MB`);
  console.log(`  RSS ${mb(start.rss)} → ${mb(end.rss)} MB (+${mb(end.rss - start.rss)}); heap used after a forced GC ${mb(start.heapUsed)} → ${mb(gc.heapUsed)} MB`);
}

if (process.argv[2] === '--send') void send(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]), process.argv[6]!);
else if (process.argv[2] === '--run') void run(Number(process.argv[3]), Number(process.argv[4]));
else void main();
