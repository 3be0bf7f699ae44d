/**
 * Memory of the extension host with use (issue #35's goal), in code-server as `bench/activation.ts`
 * drives it: a window where our extension (installed from the .vsix) opens its sidebar, answers
 * 200 chat requests through VS Code's language model API from an emulator deployment, starts the
 * listener, which then verifies 10,000 deliveries the emulator signs and sends, and opens the
 * results of 20 finished batches; against a window where only the minimal extension (an empty
 * activate) runs and makes the same outside calls where it can (bench/hostMemoryProbe.ts). Each
 * window is a new extension host; its probe reads `process.memoryUsage()` after each step, then
 * again after a forced garbage collection (V8's last-resort one, through `gc` exposed from inside
 * the host). A fresh emulator per window, its batches and the deliveries come from this process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_CONFIG } from '../src/emulator/config';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { AzureOpenAIClient } from '../src/service/client';
import { codeServerScripts, MINIMAL_CODE, OURS, ourVsix, referenceVsix, type CodeServer, type CodeServerScripts } from './activation';
import { probeScript } from './hostMemoryProbe';

const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 5);
/** Chat replies in each window, the first one measured on its own (the baseline of the goal). */
export const REPLIES = Math.max(1, Number(process.env.BENCH_MEMORY_REPLIES ?? 200));
/** Investigation: BENCH_MEMORY_DELIVERIES=0 starts the listener and sends nothing (what listening alone costs). */
export const DELIVERIES = Number(process.env.BENCH_MEMORY_DELIVERIES ?? 10_000);
/**
 * Deliveries a second, at most (0: as fast as the listener answers, 4 in flight). The service sends
 * a few a minute; 50 a second is a resource far busier than any user's.
 */
export const DELIVERY_RATE = Number(process.env.BENCH_MEMORY_DELIVERY_RATE ?? 0);
/** Finished batches whose results each window opens, and the lines of each. */
export const BATCHES = Number(process.env.BENCH_MEMORY_BATCHES ?? 20);
const BATCH_LINES = Number(process.env.BENCH_MEMORY_BATCH_LINES ?? 100);
/** The warm-up round does a little of everything: what it is for is VS Code's first start, not the work. */
const WARM_UP = { replies: Math.min(REPLIES, 5), deliveries: Math.min(DELIVERIES, 100), batches: Math.min(BATCHES, 1) };
/** Generous: about 0.4 s a reply, 10 ms a delivery and 2 s a batch were measured; a window gives up after three times that and 3 minutes. */
const WINDOW_TIMEOUT_MS = 180_000 + 3 * (400 * REPLIES + Math.max(10, DELIVERY_RATE ? 1000 / DELIVERY_RATE : 0) * DELIVERIES + 2000 * BATCHES);
/**
 * The event delivered: a response's by default (nothing else follows from it). `batch.completed`
 * makes each delivery also refresh the batch and raise a notification (the jobs' own work).
 */
const EVENT_TYPE = process.env.BENCH_MEMORY_EVENT ?? 'response.completed';
/**
 * Where to write a heap snapshot of each window's host after its GC (for looking into what is kept);
 * BENCH_MEMORY_ALLOC=dir writes a sampled allocation profile of each step up to the batch results (what
 * was allocated, collected or not, by function: open it in Chrome's DevTools, Memory tab).
 */
const SNAPSHOT_DIR = process.env.BENCH_MEMORY_SNAPSHOT;
/** The extension keeps this many verified deliveries (aoaiWorkbench.webhooks.maxStoredEvents' default): the newest must all be on disk. */
const STORED = 1000;

/** The emulator each window talks to: batches finish in about a second, and 200 replies fit its gpt-4o's rate limits. */
const EMULATOR_CONFIG = {
  jobs: { stepMs: 100 },
  deployments: DEFAULT_CONFIG.deployments.map((d) => (d.name === 'gpt-4o' ? { ...d, requestsPerMinute: 10_000, tokensPerMinute: 10_000_000 } : d)),
};

/** The `later` step: this long after the last batch results were opened (the `batches` step is 2 s after). */
export const LATER_MS = 10_000;

export const STEPS = ['view', 'chat', 'replies', 'delivered', 'batches', 'later', 'gc'] as const;
export type Step = (typeof STEPS)[number];
export interface Sample {
  rss: number;
  heapUsed: number;
  /** What V8 holds for its heap, used or not. */
  heapTotal: number;
  /** Buffers and other memory outside the JS heap that JS objects hold. */
  external: number;
  /**
   * Where the RSS lies (Linux, /proc/self/status): anonymous memory (the JS heap, malloc, compiled
   * code), and pages of mapped files (the executable, libraries); and V8's code space.
   */
  anon?: number;
  file?: number;
  code?: number;
  /** The RSS of the host's webhook listener process (bytes; 0 when none runs). */
  child?: number;
  /** BENCH_MEMORY_SMAPS: RSS (MB) by kind of mapping. */
  maps?: Record<string, number>;
  /** BENCH_MEMORY_SMAPS: which of the Node modules undici requires were loaded by then. */
  loaded?: string[];
  /** BENCH_MEMORY_SMAPS: V8's spaces, MB committed/resident. */
  spaces?: Record<string, string>;
  /** BENCH_MEMORY_GCS: the scavenges since the step before (MB survived; what had survived when one grew new space). */
  gcs?: { scavenges: number; survived: number; grewAfter: number[]; full: number; newSpace: number[] };
}
export type WindowMemory = Record<Step, Sample> & {
  /** VS Code's own extensions active by the end (ours and the minimal one left out): both windows should run the same. */
  others?: string[];
};
export interface HostMemoryResult {
  ours: WindowMemory[];
  minimal: WindowMemory[];
  /** How long each window of ours took to get its deliveries answered. */
  deliverySeconds: number[];
  /** How long each measured window took, start to figures. */
  windowSeconds: { ours: number[]; minimal: number[] };
}

/** This process's side of the probe's steps: a fresh emulator per window, its batches, and the deliveries. */
class Control {
  emu: Emulator | undefined;
  private client: AzureOpenAIClient | undefined;
  /** Whether the current window's host listens (ours) or not (the reference). */
  deliver = false;
  /** What the current window gets: the warm-up's little, or the measured round's all. */
  deliveries = DELIVERIES;
  batches = BATCHES;
  /** How long each window's deliveries took (all answered). */
  readonly deliverySeconds: number[] = [];
  /** The events file our extension writes, to check the deliveries were verified. */
  eventsFile = '';
  /** Where batch input files are written before their upload. */
  dir = '';
  private server = createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      let answer: unknown = {};
      if (req.url === '/emulator') {
        this.emu = await startEmulator({ config: EMULATOR_CONFIG });
        this.client = new AzureOpenAIClient({ endpoint: this.emu.url, auth: { kind: 'apiKey', apiKey: this.emu.apiKey } });
        answer = { url: this.emu.url, apiKey: this.emu.apiKey };
      } else if (req.url === '/deliver' && this.deliver) {
        await this.sendDeliveries();
      } else if (req.url === '/batches') {
        answer = await this.finishedBatches();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } catch (err) {
      res.writeHead(500).end(String((err as Error).stack ?? err));
    }
  }

  /**
   * Events the emulator signs and delivers (4 at a time: as fast as the listener answers), each
   * answered 200, then the newest the extension keeps all recorded as verified on disk.
   */
  private async sendDeliveries(): Promise<void> {
    const emu = this.emu!;
    const count = this.deliveries;
    let next = 0;
    const t0 = Date.now();
    const one = async (): Promise<void> => {
      while (next < count) {
        const n = next++;
        const due = DELIVERY_RATE ? t0 + (n * 1000) / DELIVERY_RATE - Date.now() : 0;
        if (due > 0) await new Promise((r) => setTimeout(r, due));
        const res = await fetch(`${emu.url}/emulator/events`, {
          method: 'POST',
          headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ type: EVENT_TYPE, data: { id: `${EVENT_TYPE.split('.')[0]}_bench_${n}` } }),
        });
        const { deliveries } = (await res.json()) as { deliveries: Array<{ attempts: Array<{ status?: number }> }> };
        if (deliveries.length !== 1 || deliveries[0].attempts[0]?.status !== 200) throw new Error(`delivery ${n} was not accepted: ${JSON.stringify(deliveries)}`);
      }
    };
    await Promise.all([one(), one(), one(), one()]);
    this.deliverySeconds.push((Date.now() - t0) / 1000);
    // The newest `STORED` arrived in about the order sent (4 in flight): a few at the edge may be older ones.
    const newest = Array.from({ length: Math.max(0, Math.min(count, STORED) - 8) }, (_, i) => count - 1 - i);
    let missing = newest;
    for (let i = 0; i < 150 && missing.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const verified = verifiedOnDisk(this.eventsFile);
      missing = newest.filter((n) => !verified.has(n));
    }
    if (missing.length) throw new Error(`${missing.length} of the newest ${newest.length} deliveries (e.g. #${missing[0]}) are not recorded as verified in ${this.eventsFile}`);
  }

  /** Batches of chat completions, created at once and awaited until all completed; their ids and output files. */
  private async finishedBatches(): Promise<Array<{ id: string; outputFileId: string }>> {
    const client = this.client!;
    const ids = await Promise.all(
      Array.from({ length: this.batches }, async (_, b) => {
        const path = join(this.dir, `batch-${b}.jsonl`);
        const body = (i: number) => ({ model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content: `Question ${i} of batch ${b}` }] });
        const line = (i: number) => JSON.stringify({ custom_id: `task-${i}`, method: 'POST', url: '/v1/chat/completions', body: body(i) });
        writeFileSync(path, Array.from({ length: BATCH_LINES }, (_, i) => line(i)).join('\n'));
        const file = await client.jobs.files.upload(path, { purpose: 'batch' });
        return (await client.jobs.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions' })).id;
      }),
    );
    const out: Array<{ id: string; outputFileId: string }> = [];
    for (const id of ids) {
      for (let i = 0; ; i++) {
        const batch = await client.jobs.batches.retrieve(id);
        if (batch.status === 'completed' && batch.output_file_id) {
          out.push({ id, outputFileId: batch.output_file_id });
          break;
        }
        if (i >= 600) throw new Error(`batch ${id} is still ${batch.status} after a minute`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return out;
  }

  async endWindow(): Promise<void> {
    await this.client?.close();
    await this.emu?.close();
    this.client = undefined;
    this.emu = undefined;
  }

  close(): void {
    this.server.close();
  }
}

/** The bench deliveries (by number) the events file records as verified. */
function verifiedOnDisk(file: string): Set<number> {
  const out = new Set<number>();
  if (!existsSync(file)) return out;
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    const n = /_bench_(\d+)/.exec(l);
    if (n && l.includes('"verdict":"verified"')) out.add(Number(n[1]));
  }
  return out;
}

export async function benchHostMemory(): Promise<HostMemoryResult> {
  const ours = ourVsix();
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const scripts = await codeServerScripts();
  const control = new Control();
  await control.start();
  control.dir = dir;
  try {
    const server = await scripts.startCodeServer({
      extraArgs: ['--vscode-option', 'enable-smoke-test-driver', '--reconnection-grace-time', '5'],
      vsix: [ours, referenceVsix(dir, 'minimal', MINIMAL_CODE)],
    });
    try {
      const browser = await chromium.launch({ executablePath: scripts.chromiumPath(), args: scripts.CHROMIUM_ARGS });
      try {
        return await measure(scripts, server, browser, dir, control);
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    control.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(scripts: CodeServerScripts, server: CodeServer, browser: Browser, dir: string, control: Control): Promise<HostMemoryResult> {
  const probe = join(dir, 'probe.js');
  writeFileSync(probe, probeScript(LATER_MS));
  const storage = join(server.root, 'user-data', 'User', 'globalStorage', OURS);
  control.eventsFile = join(storage, 'webhook-events.jsonl');
  const result: HostMemoryResult = { ours: [], minimal: [], deliverySeconds: control.deliverySeconds, windowSeconds: { ours: [], minimal: [] } };
  // Round 0 is not measured: the profile's first window is VS Code's first start (its Welcome page,
  // and the built-in extensions that page's documents activate) and the first look at our sidebar
  // (our walkthrough opens, once per profile): neither is what either window measures after it.
  for (let round = 0; round <= ROUNDS; round++) {
    const warmUp = round === 0;
    // Each goes first in every other round, so neither always meets a host the other just left.
    const order: Array<'ours' | 'minimal'> = round % 2 ? ['ours', 'minimal'] : ['minimal', 'ours'];
    for (const which of order) {
      control.deliver = which === 'ours';
      control.deliveries = warmUp ? WARM_UP.deliveries : DELIVERIES;
      control.batches = warmUp ? WARM_UP.batches : BATCHES;
      const t0 = Date.now();
      // A new browser profile per window: no connection or listening session carried over.
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        let onLine: (line: string) => void = () => {};
        const line = new Promise<string>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`${which} window, round ${warmUp ? 'warm-up' : round}: no memory figures within ${WINDOW_TIMEOUT_MS / 1000} s:\n${server.output().slice(-3000)}`)),
            WINDOW_TIMEOUT_MS,
          );
          onLine = (l) => {
            if (!l.startsWith('BENCH-MEMORY ')) return;
            clearTimeout(timer);
            resolve(l.slice('BENCH-MEMORY '.length));
          };
        });
        line.catch(() => undefined); // awaited below; goto may fail first
        await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
          const l = String(Array.isArray(args) ? args.join(' ') : args);
          // The probe's own failure (a step refused, a reply missing) is what to read when a window times out.
          if (type === 'error' && /Error/.test(l)) process.stderr.write(`  [${which} window] ${l.slice(0, 400)}\n`);
          onLine(l);
        });
        await page.exposeFunction('codeAutomationExit', () => undefined);
        const env: Record<string, string> = {
          BENCH_CONTROL: control.url,
          BENCH_MEMORY_WINDOW: which,
          BENCH_MEMORY_EVENT: EVENT_TYPE,
          BENCH_MEMORY_REPLIES: String(warmUp ? WARM_UP.replies : REPLIES),
          // Lets the probe mark its command arguments as our UI's (src/extension.ts, askFirst.ts).
          AOAI_WORKBENCH_TEST_INTERNALS: '1',
          ...(SNAPSHOT_DIR ? { BENCH_MEMORY_SNAPSHOT: SNAPSHOT_DIR } : {}),
          ...(process.env.BENCH_MEMORY_ALLOC ? { BENCH_MEMORY_ALLOC: process.env.BENCH_MEMORY_ALLOC } : {}),
          ...(process.env.BENCH_MEMORY_SMAPS ? { BENCH_MEMORY_SMAPS: '1' } : {}),
          ...(process.env.BENCH_MEMORY_HIDE_VIEW ? { BENCH_MEMORY_HIDE_VIEW: '1' } : {}),
          ...(process.env.BENCH_MEMORY_GCS ? { BENCH_MEMORY_GCS: '1' } : {}),
        };
        await page.goto(scripts.workbenchUrl(server, { extensionPath: scripts.testHarnessExtension(server), testsPath: probe, env }));
        const figures = JSON.parse(await line) as WindowMemory;
        if (warmUp && which === 'ours') control.deliverySeconds.pop();
        if (!warmUp) result[which].push(figures);
        if (!warmUp) result.windowSeconds[which].push((Date.now() - t0) / 1000);
        if (process.env.BENCH_MEMORY_GCS && !warmUp) for (const step of STEPS) console.log(`  ${which} ${step} scavenges: ${JSON.stringify(figures[step].gcs)}`);
        if (process.env.BENCH_MEMORY_SMAPS && !warmUp) {
          for (const step of STEPS) {
            const f = figures[step];
            console.log(`  ${which} ${step} maps: ${JSON.stringify(f.maps)} spaces: ${JSON.stringify(f.spaces)} loaded: ${f.loaded?.join(' ')}`);
          }
        }
      } finally {
        await context.close();
        await control.endWindow();
      }
      // The next window of ours starts with no events, ids or usage on disk, as this one did.
      await new Promise((r) => setTimeout(r, 1000));
      for (const f of existsSync(storage) ? readdirSync(storage) : []) if (/^(webhook-(events|ids)|usage)/.test(f)) rmSync(join(storage, f), { recursive: true, force: true });
    }
  }
  return result;
}
