/**
 * Issue 27's usage goals, each beside a reference measured in the same run:
 * (a) recording one request's usage: what the caller pays (building the record, handing it to the
 *     log), against one loopback request to the emulator (goal <= 1 %), and the whole recording
 *     with its write to disk (done a moment later, off the caller's path), in CPU time;
 * (b) issue 37: the usage view's tables from a full log (32 MiB, the default cap) of the records
 *     our chat writes, by the view's own path (`UsageLog.summarize`: streamed, JSON.parse per line,
 *     exact percentiles), goal <= 300 ms of CPU time (wall time shown beside it: the machine is
 *     shared); beside it the same tables read naively (the whole file read, split, every line
 *     parsed into an array, grouped with plain arrays), for information. Each side in a process of
 *     its own (a window's first open of the view), alternated.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { rateLimitOf, type RequestReport } from '../src/chat/engine/report';
import { startEmulator } from '../src/emulator/server';
import { usageRecordOf } from '../src/chat/engine/usageRecord';
import { createUsageRecord, serializeUsageRecord, type UsageInput, type UsageRecord } from '../src/usage/record';
import { DEFAULT_USAGE_CAPS, UsageLog } from '../src/usage/usageLog';

const run = promisify(execFile);
/** Rounds of each side of the aggregation (each a process of its own), alternated; medians are shown. */
const AGGREGATE_ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface UsageBench {
  record: { appendUs: number; cpuUs: number; burstCpuUs: number; requestMs: number; rounds: number };
  aggregate: { records: number; fileMB: number; rounds: number; ours: Side; naive: Side };
}
export interface Side {
  ms: number;
  /** CPU time of all the process's threads (the garbage collector's helpers included). */
  cpuMs: number;
  peakMB: number;
}

/** Connection id and label, deployment, and the model name the service answers with. */
const DEPLOYMENTS = [
  ['emulator', 'Local emulator', 'gpt-4o', 'gpt-4o-2024-11-20'],
  ['emulator', 'Local emulator', 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18'],
  ['emulator', 'Local emulator', 'o3-mini', 'o3-mini-2025-01-31'],
  ['contoso', 'Contoso (prod, Sweden Central)', 'chat-main', 'gpt-4.1-2025-04-14'],
  ['contoso', 'Contoso (prod, Sweden Central)', 'codex', 'gpt-5-codex'],
  ['contoso', 'Contoso (prod, Sweden Central)', 'fine-tuned', 'gpt-4o-mini-2024-07-18.ft-0123456789abcdef'],
  ['fabrikam', 'Fabrikam dev', 'gpt-5', 'gpt-5-2025-08-07'],
  ['fabrikam', 'Fabrikam dev', 'gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'],
] as const;
const SOURCES = ['panel', 'panel', 'panel', 'vscode-chat', 'vscode-chat', 'compare'] as const;
const DAY_MS = 86_400_000;

/**
 * A log of `bytes` (whole lines) as the extension writes it: the runner's reports of chat requests
 * over the last 45 days (through `usageRecordOf`, as the usage recorder does), 3 % answered 429,
 * 1 % failed, and now and then a batch's records (one per minute and outcome). Seeded: every run
 * is alike. Gives how many records it wrote.
 */
export async function writeLog(path: string, bytes: number, now: number): Promise<number> {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  // About 430 bytes a record: spread the file's records evenly over the days.
  const estimate = Math.round(bytes / 430);
  const out = createWriteStream(path, { mode: 0o600 });
  let written = 0;
  let count = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length && !out.write(`${batch.join('\n')}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    batch = [];
  };
  for (let i = 0; ; i++) {
    const [connectionId, connectionLabel, deployment, model] = DEPLOYMENTS[Math.floor(rand() * DEPLOYMENTS.length)];
    const at = now - Math.floor(Math.max(0, 1 - i / estimate) * 45 * DAY_MS);
    let record: UsageRecord;
    if (i % 500 === 499) {
      const tokens = { prompt: Math.floor(rand() * 400_000), cached: 0, completion: Math.floor(rand() * 90_000) };
      const requests = 2 + Math.floor(rand() * 200);
      record = createUsageRecord({ at, connectionId, connectionLabel, deployment, model, api: 'chat', route: 'v1', source: 'batch', requests, tokens, outcome: { kind: 'ok' } });
    } else {
      const roll = rand();
      const limited = roll < 0.03;
      const failed = !limited && roll < 0.04;
      const prompt = Math.floor(rand() * 6000);
      const report: RequestReport = {
        source: SOURCES[i % SOURCES.length],
        connection: connectionId,
        deployment,
        model,
        api: model.startsWith('gpt-5') ? 'responses' : 'chat',
        route: 'v1',
        startedAt: at,
        attempt: 1,
        tokens: limited || failed
          ? undefined
          : { prompt, cached: Math.floor(prompt * rand() * 0.5), completion: Math.floor(rand() * 1500), reasoning: model.startsWith('o') ? Math.floor(rand() * 800) : 0 },
        firstTokenMs: limited || failed ? undefined : 150 + Math.floor(rand() * 900),
        totalMs: limited ? 40 : 600 + Math.floor(rand() * 9000),
        outcome: limited ? 'rate_limited' : failed ? 'failed' : 'ok',
        status: limited ? 429 : failed ? 500 : 200,
        retryAfterMs: limited ? 1000 + Math.floor(rand() * 5000) : undefined,
        rateLimit: { remainingRequests: Math.floor(rand() * 300), remainingTokens: Math.floor(rand() * 50_000), limitRequests: 300, limitTokens: 50_000 },
      };
      record = usageRecordOf(report, connectionLabel);
    }
    const line = serializeUsageRecord(record);
    if (written + Buffer.byteLength(line) + 1 > bytes) break;
    written += Buffer.byteLength(line) + 1;
    count++;
    batch.push(line);
    if (batch.length === 5000) await flush();
  }
  await flush();
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return count;
}

type Mode = 'ours' | 'naive';

async function side(mode: Mode, path: string, now: number): Promise<Side & { tables: string; records: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(__dirname, 'usageChild.ts'), mode, path, String(now)], { maxBuffer: 64 << 20, cwd: join(__dirname, '..') });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/** The view's tables from a full log, both ways, alternated; they must agree on every figure both give. */
async function benchAggregate(dir: string): Promise<UsageBench['aggregate']> {
  const path = join(dir, 'usage.jsonl');
  const now = Date.now();
  const records = await writeLog(path, DEFAULT_USAGE_CAPS.maxBytes, now);
  const runs: Record<Mode, Side[]> = { ours: [], naive: [] };
  let check: string | undefined;
  for (let round = 0; round < AGGREGATE_ROUNDS; round++) {
    for (const mode of ['ours', 'naive'] as const) {
      const r = await side(mode, path, now);
      check ??= r.tables;
      if (r.tables !== check) throw new Error(`the two readings disagree on the tables (${mode}: ${r.records} records)`);
      runs[mode].push({ ms: r.ms, cpuMs: r.cpuMs, peakMB: r.peakMB });
    }
  }
  const mid = (xs: Side[]) => ({ ms: median(xs.map((x) => x.ms)), cpuMs: median(xs.map((x) => x.cpuMs)), peakMB: Math.max(...xs.map((x) => x.peakMB)) });
  return { records, fileMB: statSync(path).size / 2 ** 20, rounds: AGGREGATE_ROUNDS, ours: mid(runs.ours), naive: mid(runs.naive) };
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
        rateLimit: rateLimitOf(res.headers),
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

export async function benchUsage(): Promise<UsageBench> {
  const dir = mkdtempSync(join(tmpdir(), 'usage-bench-'));
  try {
    return { record: await benchRecord(dir, 500), aggregate: await benchAggregate(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
