/**
 * Listener benchmark: signed deliveries on loopback for 10 s at fixed rates and at saturation,
 * against our listener and a reference (node:http + standardwebhooks), each in its own process.
 * Reports acknowledged deliveries per second and p50/p99 acknowledgement latency.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Pool } from 'undici';
import { generateSecret, signedHeaders } from '../src/webhooks/signature';

const DURATION_MS = Number(process.env.BENCH_LISTENER_MS ?? 10_000);

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

async function startServer(kind: 'ours' | 'reference', secret: string): Promise<{ port: number; child: ChildProcess }> {
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
  return { perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed };
}

export async function benchListener(): Promise<Array<{ label: string; ours: LoadResult; reference: LoadResult }>> {
  const secret = generateSecret();
  const out: Array<{ label: string; ours: LoadResult; reference: LoadResult }> = [];
  for (const rate of [500, 'max'] as const) {
    const results = {} as Record<'ours' | 'reference', LoadResult>;
    for (const kind of ['ours', 'reference'] as const) {
      const server = await startServer(kind, secret);
      try {
        await load(server.port, secret, 'max', 1000); // warm-up
        results[kind] = await load(server.port, secret, rate);
      } finally {
        server.child.kill();
      }
    }
    out.push({ label: rate === 'max' ? 'saturation (32 connections)' : `${rate}/s`, ...results });
  }
  return out;
}
