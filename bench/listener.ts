/**
 * Listener benchmark: signed deliveries on loopback for BENCH_LISTENER_MS (10 s) at fixed rates and at saturation,
 * against our listener and a reference (bare node:http + standardwebhooks), each in its own process.
 * Both read HTTP with node:http: the rows show what our listener's bounds, dedupe and records cost.
 * Reports acknowledged deliveries per second and p50/p99 acknowledgement latency.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { generateSecret, signedHeaders } from '../src/webhooks/signature';

const DURATION_MS = Number(process.env.BENCH_LISTENER_MS ?? 10_000);

/** ours-stored: our listener as the extension runs it, writing ids and events to disk. */
type ListenerKind = 'ours' | 'ours-stored' | 'reference';

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
  /** Deliveries answered, and how long the load actually ran (it stops early at its request cap). */
  answered: number;
  seconds: number;
  /** Deliveries per second of the listener's own CPU time: its capacity on a core of its own. */
  perCpuSecond?: number;
}

/** utime + stime of a process in seconds (Linux /proc), or undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // Fields 14 and 15 (1-based) of the whole line; the split above dropped the first two.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function startServer(kind: ListenerKind, secret: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'listener-server.ts'), kind, secret], { stdio: ['ignore', 'pipe', 'inherit'], cwd: join(__dirname, '..') });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /PORT=(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${kind} listener exited (${code})`)));
  });
  return { port, child };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Deliveries signed ahead (timestamps stay within the tolerance for the run), unique ids. */
function deliveries(secret: string, n: number): Array<{ headers: Record<string, string>; body: string }> {
  return Array.from({ length: n }, (_, i) => {
    const body = JSON.stringify({ object: 'event', id: `evt_${i}`, type: 'response.completed', created_at: 1, data: { id: `resp_${i}` } });
    return { body, headers: { 'content-type': 'application/json', ...signedHeaders(secret, `msg_${i}_${Math.random().toString(36).slice(2)}`, body) } };
  });
}

async function load(port: number, secret: string, rate: number | 'max', durationMs = DURATION_MS): Promise<LoadResult> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: rate === 'max' ? 8 : 32, pipelining: rate === 'max' ? 16 : 1 });
  const planned = rate === 'max' ? 200_000 : Math.ceil((rate * durationMs) / 1000);
  const items = deliveries(secret, Math.min(planned, 200_000));
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const send = async () => {
    const d = items[next++ % items.length];
    const t0 = performance.now();
    try {
      const res = await pool.request({ path: '/hook', method: 'POST', headers: d.headers, body: d.body });
      await res.body.dump();
      if (res.statusCode !== 200) failed++;
      latencies.push(performance.now() - t0);
    } catch {
      failed++;
    }
  };
  const started = performance.now();
  if (rate === 'max') {
    const end = started + durationMs;
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (performance.now() < end && next < items.length) await send();
    }));
  } else {
    const inflight: Promise<void>[] = [];
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(items.length, Math.floor(((performance.now() - started) / 1000) * rate));
        while (next < due) inflight.push(send());
        if (next >= items.length) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    await Promise.all(inflight);
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, answered: latencies.length, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed };
}

/** True when Debian's `wrk` (a C load generator) is installed: then it drives the saturation run. */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version.
    return (err as { status?: number }).status === 1;
  }
}

/**
 * wrk reads pre-signed deliveries (id, timestamp, signature, body per line; a slice per thread,
 * so no id repeats across threads) and sends them round-robin. A C generator keeps the load
 * generator from being the limit, which the JS one was.
 */
const WRK_SCRIPT = `
local reqs = {}
local i = 0
local n = 0
local threads = {}
function setup(thread)
  thread:set("tid", n)
  n = n + 1
  table.insert(threads, thread)
end
function init(args)
  local nthreads = tonumber(args[2])
  local line_no = 0
  for line in io.lines(args[1]) do
    if line_no % nthreads == tid then
      local id, ts, sig, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
      reqs[#reqs + 1] = wrk.format("POST", "/hook", { ["Content-Type"] = "application/json", ["webhook-id"] = id, ["webhook-timestamp"] = ts, ["webhook-signature"] = sig }, body)
    end
    line_no = line_no + 1
  end
end
function request()
  i = i + 1
  if i > #reqs then i = 1 end
  return reqs[i]
end
`;

function wrkMs(text: string, label: string): number {
  const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)\\b`).exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

async function loadWithWrk(port: number, secret: string, durationMs = DURATION_MS): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'aoai-wrk-'));
  try {
    const threads = 1;
    const items = deliveries(secret, Math.ceil((durationMs / 1000) * 60_000));
    writeFileSync(join(dir, 'deliveries.tsv'), items.map((d) => [d.headers['webhook-id'], d.headers['webhook-timestamp'], d.headers['webhook-signature'], d.body].join('\t')).join('\n'));
    writeFileSync(join(dir, 'load.lua'), WRK_SCRIPT);
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', [
        '-t', String(threads), '-c', '32', '-d', `${Math.round(durationMs / 1000)}s`, '--latency', '-s', join(dir, 'load.lua'),
        `http://127.0.0.1:${port}/hook`, '--', join(dir, 'deliveries.tsv'), String(threads),
      ]);
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
    });
    const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
    // "123456 requests in 10.00s, …"
    const [, answered, secs] = /(\d+) requests in ([\d.]+)s/.exec(out) ?? [];
    const failed = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0);
    return { perSecond, answered: Number(answered ?? NaN), seconds: Number(secs ?? durationMs / 1000), p50: wrkMs(out, '50%'), p99: wrkMs(out, '99%'), failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchListener(): Promise<Array<{ label: string; ours: LoadResult; reference: LoadResult; stored?: LoadResult }>> {
  const secret = generateSecret();
  const out: Array<{ label: string; ours: LoadResult; reference: LoadResult; stored?: LoadResult }> = [];
  const useWrk = hasWrk();
  for (const rate of [500, 'max'] as const) {
    const results = {} as Record<ListenerKind, LoadResult>;
    for (const kind of rate === 'max' ? (['ours', 'reference', 'ours-stored'] as const) : (['ours', 'reference'] as const)) {
      const server = await startServer(kind, secret);
      try {
        await load(server.port, secret, 'max', 1000); // warm-up
        const cpu0 = cpuSeconds(server.child.pid!);
        const r = rate === 'max' && useWrk ? await loadWithWrk(server.port, secret) : await load(server.port, secret, rate);
        const cpu1 = cpuSeconds(server.child.pid!);
        // Deliveries actually answered (not rate × nominal duration) over the CPU time they took.
        if (cpu0 !== undefined && cpu1 !== undefined && cpu1 > cpu0) r.perCpuSecond = r.answered / (cpu1 - cpu0);
        results[kind] = r;
      } finally {
        server.child.kill();
      }
    }
    out.push({ label: rate === 'max' ? `saturation (32 connections, ${useWrk ? 'wrk' : 'undici'})` : `${rate}/s`, ours: results.ours, reference: results.reference, stored: results['ours-stored'] });
  }
  return out;
}
