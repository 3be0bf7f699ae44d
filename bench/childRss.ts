/**
 * The webhook listener's own process in plain Node (issue #35): its RSS (from /proc) after it
 * starts and after N signed deliveries sent 4 at a time, the bundled child (dist/webhook-listener.js,
 * `npm run build` first) as the extension forks it. `npx tsx bench/childRss.ts [deliveries] [flags…]`;
 * run it with the host's Node to match VS Code's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChildListener } from '../src/webhooks/receive/childListener';
import { generateSecret, signedHeaders } from '../src/webhooks/signature';

const count = Number(process.argv[2] ?? 10_000);
const flags = process.argv.slice(3);
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main(): Promise<void> {
  const secret = generateSecret();
  const ids = new Set<string>();
  let recorded = 0;
  const l = new ChildListener(
    {
      secrets: () => [{ endpointId: 'we_1', secret }],
      forwardTo: () => undefined,
      dedupe: { has: (id) => ids.has(id), add: (id) => void ids.add(id) },
      onDelivery: () => void recorded++,
      onForwarded: () => undefined,
    },
    { entry: join(__dirname, '..', 'dist', 'webhook-listener.js'), execArgv: flags },
  );
  const url = await l.start();
  const pid = l.pid!;
  const started = rssMb(pid);
  let next = 0;
  let peak = started;
  const t0 = Date.now();
  const one = async () => {
    while (next < count) {
      const n = next++;
      const body = JSON.stringify({ object: 'event', id: `evt_${n}`, type: 'response.completed', created_at: 1, data: { id: `resp_bench_${n}` } });
      const res = await fetch(`${url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, `msg_${n}`, body) }, body });
      await res.arrayBuffer();
      if (n % 500 === 0) peak = Math.max(peak, rssMb(pid));
    }
  };
  await Promise.all([one(), one(), one(), one()]);
  const seconds = (Date.now() - t0) / 1000;
  for (let i = 0; i < 600 && recorded < count; i++) await new Promise((r) => setTimeout(r, 50));
  const after = rssMb(pid);
  const said = `${started.toFixed(1)} MB started, ${after.toFixed(1)} MB after ${count} deliveries (peak sampled ${Math.max(peak, after).toFixed(1)})`;
  console.log(`child RSS: ${said}, ${recorded} handed to the host, ${seconds.toFixed(1)} s; flags ${flags.join(' ') || '(none beyond the heap bounds)'}`);
  await l.stop();
}

void main();
