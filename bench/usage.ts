/**
 * Issue 27's usage goals, each beside a reference measured in the same run:
 * (a) recording one request's usage: what the caller pays (building the record, handing it to the
 *     log), against one loopback request to the emulator (goal <= 1 %), and the whole recording
 *     with its write to disk (done a moment later, off the caller's path), in CPU time;
 * (b) the usage view's tables from a log of 1,000,000 records, by the view's own path: warm (the
 *     day summary beside the log, and the lines after it) and cold (no summary yet: every line
 *     read, the summary saved), against loading every record with JSON.parse into an array and
 *     reducing it with the same aggregator; CPU time (median of 5 rounds, alternated), wall time
 *     and peak memory, each side in a process of its own (goal >= 3x, <= 1/3).
 */
import { execFile } from 'node:child_process';
import { appendFileSync, closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { startEmulator } from '../src/emulator/server';
import { createUsageRecord, rateLimitFromHeaders, serializeUsageRecord, type UsageInput, type UsageSource } from '../src/usage/record';
import { summaryPath } from '../src/usage/daySummary';
import { UsageLog } from '../src/usage/usageLog';

const run = promisify(execFile);
/** Rounds of each side of the aggregation (each a process of its own), alternated; medians are shown. */
const AGGREGATE_ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface UsageBench {
  record: { appendUs: number; cpuUs: number; burstCpuUs: number; requestMs: number; rounds: number };
  aggregate: { records: number; fileMB: number; rounds: number; tail: number; cold: Side; warm: Side; reference: Side };
}
interface Side {
  ms: number;
  /** CPU time of all the process's threads (the garbage collector's helpers included). */
  cpuMs: number;
  peakMB: number;
}

const DEPLOYMENTS = [
  ['emulator', 'Local emulator', 'gpt-4o', 'gpt-4o', '2024-11-20'],
  ['emulator', 'Local emulator', 'gpt-4o-mini', 'gpt-4o-mini', '2024-07-18'],
  ['emulator', 'Local emulator', 'o3-mini', 'o3-mini', '2025-01-31'],
  ['contoso', 'Contoso (prod, Sweden Central)', 'chat-main', 'gpt-4.1', '2025-04-14'],
  ['contoso', 'Contoso (prod, Sweden Central)', 'codex', 'gpt-5-codex', '2025-09-15'],
  ['contoso', 'Contoso (prod, Sweden Central)', 'fine-tuned', 'gpt-4o-mini-ft', '1'],
  ['fabrikam', 'Fabrikam dev', 'gpt-5', 'gpt-5', '2025-08-07'],
  ['fabrikam', 'Fabrikam dev', 'gpt-4.1-nano', 'gpt-4.1-nano', '2025-04-14'],
] as const;
const SOURCES: UsageSource[] = ['panel', 'panel', 'vscode-chat', 'vscode-chat', 'compare', 'batch'];

/** A log of `n` records over the last 30 days, as the extension writes it (seeded, so every run is alike). */
export async function writeLog(path: string, n: number, now: number): Promise<void> {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const out = createWriteStream(path);
  let batch: string[] = [];
  for (let i = 0; i < n; i++) {
    const [connectionId, connectionLabel, deployment, model, modelVersion] = DEPLOYMENTS[Math.floor(rand() * DEPLOYMENTS.length)];
    const limited = rand() < 0.03;
    const prompt = Math.floor(rand() * 6000);
    const record = createUsageRecord({
      at: now - Math.floor(((n - i) / n) * 30 * 86_400_000 * 0.97),
      connectionId,
      connectionLabel,
      deployment,
      model,
      modelVersion,
      api: model.startsWith('gpt-5') ? 'responses' : 'chat',
      route: 'v1',
      source: SOURCES[i % SOURCES.length],
      tokens: limited ? {} : { prompt, cached: Math.floor(prompt * rand() * 0.5), completion: Math.floor(rand() * 1500), reasoning: model.startsWith('o') ? Math.floor(rand() * 800) : 0 },
      firstTokenMs: limited ? undefined : 150 + Math.floor(rand() * 900),
      totalMs: limited ? 40 : 600 + Math.floor(rand() * 9000),
      outcome: limited ? { kind: 'rate_limited', waitMs: 1000 + Math.floor(rand() * 5000) } : { kind: 'ok' },
      rateLimit: { remainingRequests: Math.floor(rand() * 300), remainingTokens: Math.floor(rand() * 50_000), limitRequests: 300, limitTokens: 50_000 },
    });
    batch.push(serializeUsageRecord(record));
    if (batch.length === 5000 || i === n - 1) {
      if (!out.write(`${batch.join('\n')}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
      batch = [];
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

type Mode = 'cold' | 'warm' | 'reference';

async function side(mode: Mode, path: string, now: number): Promise<Side & { summary: string; records: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(__dirname, 'usageChild.ts'), mode, path, String(now)], { maxBuffer: 64 << 20, cwd: join(__dirname, '..') });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/**
 * The log as a user's view meets it: a day summary made before the last day's records (a thirtieth
 * of the lines, more than a day's worth) were written. `warm` reads that summary and those lines;
 * `cold` has no summary (the first open, or after a compaction) and makes it from every line.
 */
async function benchAggregate(dir: string, n: number): Promise<UsageBench['aggregate']> {
  const path = join(dir, 'usage.jsonl');
  const days = summaryPath(path);
  const now = Date.now();
  await writeLog(path, n, now);
  // The last lines, read from the end (the bench keeps no copy of the log: a child's peak memory counts its parent's at the fork).
  const { size: whole } = statSync(path);
  const tailLines = Math.ceil(n / 30);
  const end = Buffer.alloc(Math.min(whole, tailLines * 640));
  const fd = openSync(path, 'r');
  readSync(fd, end, 0, end.length, whole - end.length);
  closeSync(fd);
  let cut = end.length - 1;
  for (let k = 0; k < tailLines + 1; k++) cut = end.lastIndexOf(10, cut - 1);
  if (cut < 0) throw new Error('the last lines are longer than thought');
  const tail = Buffer.from(end.subarray(cut + 1));
  truncateSync(path, whole - tail.length);
  const { records: summed } = await side('cold', path, now);
  const saved = readFileSync(days);
  appendFileSync(path, tail);
  const { size } = statSync(path);
  // Alternate the sides, ROUNDS each, and take each one's median: CPU time (all threads) is the measure that a
  // loaded machine disturbs least; wall time is shown beside it. Memory is the same every run (its maximum is kept).
  const runs: Record<Mode, Side[]> = { cold: [], warm: [], reference: [] };
  let check: string | undefined;
  for (let round = 0; round < AGGREGATE_ROUNDS; round++) {
    for (const mode of ['cold', 'warm', 'reference'] as const) {
      if (mode === 'cold') rmSync(days, { force: true });
      if (mode === 'warm') writeFileSync(days, saved);
      const r = await side(mode, path, now);
      check ??= r.summary;
      if (r.summary !== check || r.records < n * 0.99) throw new Error(`the ways disagree on the tables (${mode}: ${r.records} records)`);
      runs[mode].push({ ms: r.ms, cpuMs: r.cpuMs, peakMB: r.peakMB });
    }
  }
  const best = (xs: Side[]) => ({
    ms: median(xs.map((x) => x.ms)),
    cpuMs: median(xs.map((x) => x.cpuMs)),
    peakMB: Math.max(...xs.map((x) => x.peakMB)),
  });
  const { cold, warm, reference } = runs;
  return { records: n, fileMB: size / 1e6, rounds: AGGREGATE_ROUNDS, tail: n - summed, cold: best(cold), warm: best(warm), reference: best(reference) };
}

async function benchRecord(dir: string, rounds: number): Promise<UsageBench['record']> {
  const emu = await startEmulator({
    config: {
      deployments: [{ name: 'bench', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 1, requestsPerMinute: 1e9, tokensPerMinute: 1e12 }],
    },
  });
  const log = await UsageLog.open(join(dir, 'record', 'usage.jsonl'));
  const body = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'hello' }] });
  const requestMs: number[] = [];
  const appendUs: number[] = [];
  try {
    let input: UsageInput | undefined;
    for (let i = 0; i < rounds + 20; i++) {
      const t0 = process.hrtime.bigint();
      const res = await request(`${emu.url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body });
      const answer = (await res.body.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
      const t1 = process.hrtime.bigint();
      input = {
        at: Date.now(),
        connectionId: 'emulator',
        connectionLabel: 'Local emulator',
        deployment: 'bench',
        model: 'gpt-4o',
        modelVersion: '2024-11-20',
        api: 'chat',
        route: 'v1',
        source: 'panel',
        tokens: { prompt: answer.usage.prompt_tokens, completion: answer.usage.completion_tokens },
        firstTokenMs: Number(t1 - t0) / 1e6,
        totalMs: Number(t1 - t0) / 1e6,
        outcome: { kind: 'ok' },
        rateLimit: rateLimitFromHeaders(res.headers),
      };
      // What the caller pays: handing its figures to the log (the record is built and written a moment later, off its path).
      const a0 = process.hrtime.bigint();
      log.append(input);
      const a1 = process.hrtime.bigint();
      await log.flush();
      if (i < 20) continue;
      requestMs.push(Number(t1 - t0) / 1e6);
      appendUs.push(Number(a1 - a0) / 1e3);
    }
    // The whole recording, its write to disk included, in CPU time of this process (all threads): each record written
    // on its own, as a chat's requests seconds apart are (a burst shares one write).
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < rounds; i++) {
      log.append({ ...input!, at: Date.now() });
      await log.flush();
    }
    const cpu = process.cpuUsage(cpu0);
    // Back-to-back requests (a compare, Run again xN, a busy agent): the records of a moment share one write.
    const burst0 = process.cpuUsage();
    for (let i = 0; i < rounds; i++) log.append({ ...input!, at: Date.now() });
    await log.flush();
    const burst = process.cpuUsage(burst0);
    return {
      appendUs: median(appendUs),
      cpuUs: (cpu.user + cpu.system) / rounds,
      burstCpuUs: (burst.user + burst.system) / rounds,
      requestMs: median(requestMs),
      rounds,
    };
  } finally {
    await emu.close();
  }
}

export async function benchUsage(records = 1_000_000): Promise<UsageBench> {
  const dir = mkdtempSync(join(tmpdir(), 'usage-bench-'));
  try {
    return { record: await benchRecord(dir, 500), aggregate: await benchAggregate(dir, records) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
