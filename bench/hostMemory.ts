/**
 * Memory of the extension host (issue #25), in code-server as `bench/activation.ts` drives it: a
 * window where our extension (installed from the .vsix) opens its sidebar, answers a chat request
 * through VS Code's language model API from an emulator deployment, lists its models, and starts
 * the listener, which then verifies 1,000 deliveries the emulator signs and sends; against a window
 * where only the minimal extension (an empty activate) runs. Each window is a new extension host;
 * its probe (`extensionTestsPath`) reads `process.memoryUsage()` after each step, then again after
 * a forced garbage collection (V8's last-resort one, through `gc` exposed from inside the host). Both probes make the same
 * calls to this process (a fresh emulator per window, the deliveries), so both pay for them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { codeServerScripts, MINIMAL, MINIMAL_CODE, OURS, ourVsix, referenceVsix, type CodeServer, type CodeServerScripts } from './activation';

const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 5);
/** Investigation: BENCH_MEMORY_DELIVERIES=0 starts the listener and sends nothing (what listening alone costs). */
export const DELIVERIES = Number(process.env.BENCH_MEMORY_DELIVERIES ?? 1000);
const WINDOW_TIMEOUT_MS = 180_000;
/**
 * The event delivered: a response's by default (nothing else follows from it). `batch.completed`
 * makes each delivery also refresh the batch and raise a notification (the jobs' own work).
 */
const EVENT_TYPE = process.env.BENCH_MEMORY_EVENT ?? 'response.completed';
/**
 * Where to write a heap snapshot of each window's host after its GC (for looking into what is kept);
 * BENCH_MEMORY_ALLOC=dir writes a sampled allocation profile of each step up to the deliveries (what
 * was allocated, collected or not, by function: open it in Chrome's DevTools, Memory tab).
 */
const SNAPSHOT_DIR = process.env.BENCH_MEMORY_SNAPSHOT;

/** The `later` step: this long after the last delivery was answered (the `delivered` step is 2 s after). */
export const LATER_MS = 10_000;

export type Step = 'view' | 'chat' | 'delivered' | 'later' | 'gc';
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
  /** BENCH_MEMORY_SMAPS: RSS (MB) by kind of mapping. */
  maps?: Record<string, number>;
  /** BENCH_MEMORY_SMAPS: which of the Node modules undici requires were loaded by then. */
  loaded?: string[];
  /** BENCH_MEMORY_SMAPS: V8's spaces, MB committed/resident. */
  spaces?: Record<string, string>;
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
}

/** Runs inside each window's extension host. */
const PROBE = `
const vscode = require('vscode');
const http = require('http');
const kb = (status, key) => { const line = status.split(String.fromCharCode(10)).find((l) => l.startsWith(key + ':')); return line ? parseInt(line.slice(key.length + 1), 10) * 1024 : undefined; };
const mem = () => {
  const m = process.memoryUsage();
  let status = '';
  try { status = require('fs').readFileSync('/proc/self/status', 'utf8'); } catch {}
  const code = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'code_space');
  const sample = { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, anon: kb(status, 'RssAnon'), file: kb(status, 'RssFile'), code: code && code.space_size };
  return process.env.BENCH_MEMORY_SMAPS ? { ...sample, maps: maps(), loaded: loaded(), spaces: spaces() } : sample;
};
// Investigation only (BENCH_MEMORY_SMAPS=1): V8's spaces, MB committed/resident (physical).
const mb = (bytes) => Math.round(bytes / 1e5) / 10;
const spaces = () =>
  Object.fromEntries(require('v8').getHeapSpaceStatistics().map((x) => [x.space_name.replace('_space', ''), mb(x.space_size) + '/' + mb(x.physical_space_size)]));
// Investigation only (BENCH_MEMORY_SMAPS=1): which of the Node modules undici requires the host has loaded.
const loaded = () => ['assert', 'http2', 'perf_hooks', 'dns', 'diagnostics_channel', 'worker_threads', 'tls'].filter((m) => process.moduleLoadList.includes('NativeModule ' + m));
// Investigation only (BENCH_MEMORY_SMAPS=1): the RSS by kind of mapping, in MB: files by name, malloc's
// heaps (the main one, and threads' arenas: 64 MB-aligned), executable memory (compiled code), and
// the rest of anonymous memory (mostly V8's heap pages).
function maps() {
  const out = {};
  let cur;
  const add = (k, kb) => (out[k] = Math.round(((out[k] || 0) + kb / 1024) * 10) / 10);
  for (const line of require('fs').readFileSync('/proc/self/smaps', 'utf8').split(String.fromCharCode(10))) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\\S+) \\S+ \\S+ \\d+\\s*(.*)$/.exec(line);
    if (m) {
      const start = BigInt('0x' + m[1]);
      const path = m[4].trim();
      cur = path.startsWith('/') ? 'file ' + path.split('/').pop() : path ? path : m[3].includes('x') ? 'anon exec' : start % 0x4000000n === 0n ? 'malloc arena' : 'anon';
      continue;
    }
    const rss = /^Rss:\\s+(\\d+) kB/.exec(line);
    if (rss && cur) add(cur, Number(rss[1]));
  }
  const files = Object.entries(out).filter(([k]) => k.startsWith('file '));
  const small = files.filter(([, v]) => v < 1);
  for (const [k] of small) delete out[k];
  out['file (others)'] = Math.round(small.reduce((n, [, v]) => n + v, 0) * 10) / 10;
  return out;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const exec = (cmd, arg) => vscode.commands.executeCommand(cmd, arg);
function step(name) {
  return new Promise((resolve, reject) => {
    const req = http.request(process.env.BENCH_CONTROL + '/' + name, { method: 'POST' }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(name + ': ' + text))));
    });
    req.on('error', reject);
    req.end();
  });
}
async function eventually(what, fn) {
  for (let i = 0; i < 300; i++) {
    const v = await fn();
    if (v) return v;
    await sleep(100);
  }
  throw new Error('gave up waiting for ' + what);
}
exports.run = async () => {
  const ours = process.env.BENCH_MEMORY_WINDOW === 'ours';
  const settle = () => sleep(2000);
  const LATER_MS = ${LATER_MS};
  const out = {};
  // Investigation only: what was allocated (kept or not) during each step, by function: one profile per step.
  const sampling = process.env.BENCH_MEMORY_ALLOC && new (require('inspector').Session)();
  const post = (method, params) => new Promise((resolve, reject) => sampling.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));
  const startSampling = () => post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const sampled = async (name) => {
    if (!sampling) return;
    const { profile } = await post('HeapProfiler.stopSampling');
    const file = process.env.BENCH_MEMORY_WINDOW + '-' + name + '-' + Date.now() + '.heapprofile';
    require('fs').writeFileSync(require('path').join(process.env.BENCH_MEMORY_ALLOC, file), JSON.stringify(profile));
    if (name !== 'delivered') await startSampling();
    else sampling.disconnect();
  };
  if (sampling) {
    sampling.connect();
    await startSampling();
  }
  await vscode.extensions.getExtension(${JSON.stringify(MINIMAL)}).activate();
  const emu = await step('emulator');
  if (ours) {
    await exec('workbench.view.extension.aoaiWorkbench');
    await eventually('our extension to activate', () => vscode.extensions.getExtension(${JSON.stringify(OURS)}).isActive);
  } else if (vscode.extensions.getExtension(${JSON.stringify(OURS)}).isActive) {
    throw new Error('our extension is active in the reference window');
  }
  await settle();
  out.view = mem();
  await sampled('view');
  let conn;
  if (ours) {
    conn = await exec('aoaiWorkbench.addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label: 'Bench' });
    const models = await eventually('the emulator deployments in the model list', async () =>
      (await vscode.lm.selectChatModels({ vendor: 'azure-openai' })).filter((m) => m.id.startsWith(conn.id + '/')));
    const model = models.find((m) => m.id.endsWith('/gpt-4o')) || models[0];
    const res = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello')], {});
    let text = '';
    for await (const t of res.text) text += t;
    if (!text) throw new Error('the chat reply was empty');
  } else {
    // Adding a connection writes a user setting, which makes VS Code open settings.json (JSON with
    // comments) and activate the built-in TypeScript and JavaScript support: the reference does as much.
    const editor = vscode.workspace.getConfiguration('editor');
    await editor.update('minimap.enabled', !editor.get('minimap.enabled'), vscode.ConfigurationTarget.Global);
  }
  await settle();
  out.chat = mem();
  await sampled('chat');
  // Investigation only: deliveries with the sidebar closed, so VS Code draws no rows.
  if (process.env.BENCH_MEMORY_HIDE_VIEW) await exec('workbench.action.closeSidebar');
  if (ours) await exec('aoaiWorkbench.startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'bench', eventTypes: [process.env.BENCH_MEMORY_EVENT] } });
  await step('deliver');
  await settle();
  out.delivered = mem();
  await sampled('delivered');
  // What a user sees once the burst is over: V8 shrinks an idle heap on its own some seconds later.
  await sleep(LATER_MS - 2000);
  out.later = mem();
  require('v8').setFlagsFromString('--expose-gc');
  // The collection V8 makes before giving up on memory: everything collectable goes, and free pages go back to the system.
  const gc = require('vm').runInNewContext('gc');
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  await sleep(1000);
  out.gc = mem();
  out.others = vscode.extensions.all.filter((e) => e.isActive && !e.id.startsWith('aoai-workbench')).map((e) => e.id).sort();
  if (process.env.BENCH_MEMORY_SNAPSHOT) require('v8').writeHeapSnapshot(require('path').join(process.env.BENCH_MEMORY_SNAPSHOT, process.env.BENCH_MEMORY_WINDOW + '-' + Date.now() + '.heapsnapshot'));
  if (ours) await exec('aoaiWorkbench.stopListening', { deleteEndpoint: false });
  console.log('BENCH-MEMORY ' + JSON.stringify(out));
};
`;

/** This process's side of the probe's steps: a fresh emulator per window, and the deliveries. */
class Control {
  emu: Emulator | undefined;
  /** Whether the current window's host listens (ours) or not (the reference). */
  deliver = false;
  /** How long each window's deliveries took (all answered). */
  readonly deliverySeconds: number[] = [];
  /** The events file our extension writes, to check every delivery was verified. */
  eventsFile = '';
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
        this.emu = await startEmulator();
        answer = { url: this.emu.url, apiKey: this.emu.apiKey };
      } else if (req.url === '/deliver' && this.deliver) {
        await this.sendDeliveries();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } catch (err) {
      res.writeHead(500).end(String((err as Error).stack ?? err));
    }
  }

  /** 1,000 events the emulator signs and delivers (4 at a time), each answered 200, then all verified on disk. */
  private async sendDeliveries(): Promise<void> {
    const emu = this.emu!;
    let next = 0;
    const one = async (): Promise<void> => {
      while (next < DELIVERIES) {
        const n = next++;
        const res = await fetch(`${emu.url}/emulator/events`, {
          method: 'POST',
          headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ type: EVENT_TYPE, data: { id: `${EVENT_TYPE.split('.')[0]}_bench_${n}` } }),
        });
        const { deliveries } = (await res.json()) as { deliveries: Array<{ attempts: Array<{ status?: number }> }> };
        if (deliveries.length !== 1 || deliveries[0].attempts[0]?.status !== 200) throw new Error(`delivery ${n} was not accepted: ${JSON.stringify(deliveries)}`);
      }
    };
    const t0 = Date.now();
    await Promise.all([one(), one(), one(), one()]);
    this.deliverySeconds.push((Date.now() - t0) / 1000);
    for (let i = 0; i < 150 && verifiedOnDisk(this.eventsFile) < DELIVERIES; i++) await new Promise((r) => setTimeout(r, 100));
    const verified = verifiedOnDisk(this.eventsFile);
    if (verified < DELIVERIES) throw new Error(`only ${verified} of ${DELIVERIES} deliveries are recorded as verified in ${this.eventsFile}`);
  }

  async endWindow(): Promise<void> {
    await this.emu?.close();
    this.emu = undefined;
  }

  close(): void {
    this.server.close();
  }
}

function verifiedOnDisk(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"verdict":"verified"')).length;
}

export async function benchHostMemory(): Promise<HostMemoryResult> {
  const ours = ourVsix();
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const scripts = await codeServerScripts();
  const control = new Control();
  await control.start();
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
  writeFileSync(probe, PROBE);
  const storage = join(server.root, 'user-data', 'User', 'globalStorage', OURS);
  control.eventsFile = join(storage, 'webhook-events.jsonl');
  const result: HostMemoryResult = { ours: [], minimal: [], deliverySeconds: control.deliverySeconds };
  // Round 0 is not measured: the profile's first window is VS Code's first start (its Welcome page,
  // and the built-in extensions that page's documents activate) and the first look at our sidebar
  // (our walkthrough opens, once per profile): neither is what either window measures after it.
  for (let round = 0; round <= ROUNDS; round++) {
    const warmUp = round === 0;
    // Each goes first in every other round, so neither always meets a host the other just left.
    const order: Array<'ours' | 'minimal'> = round % 2 ? ['ours', 'minimal'] : ['minimal', 'ours'];
    for (const which of order) {
      control.deliver = which === 'ours';
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
          ...(SNAPSHOT_DIR ? { BENCH_MEMORY_SNAPSHOT: SNAPSHOT_DIR } : {}),
          ...(process.env.BENCH_MEMORY_ALLOC ? { BENCH_MEMORY_ALLOC: process.env.BENCH_MEMORY_ALLOC } : {}),
          ...(process.env.BENCH_MEMORY_SMAPS ? { BENCH_MEMORY_SMAPS: '1' } : {}),
          ...(process.env.BENCH_MEMORY_HIDE_VIEW ? { BENCH_MEMORY_HIDE_VIEW: '1' } : {}),
        };
        await page.goto(scripts.workbenchUrl(server, { extensionPath: scripts.testHarnessExtension(server), testsPath: probe, env }));
        const figures = JSON.parse(await line) as WindowMemory;
        if (warmUp && which === 'ours') control.deliverySeconds.pop();
        if (!warmUp) result[which].push(figures);
        if (process.env.BENCH_MEMORY_SMAPS && !warmUp) {
          for (const step of ['view', 'chat', 'delivered', 'later', 'gc'] as const) {
            const f = figures[step];
            console.log(`  ${which} ${step} maps: ${JSON.stringify(f.maps)} spaces: ${JSON.stringify(f.spaces)} loaded: ${f.loaded?.join(' ')}`);
          }
        }
      } finally {
        await context.close();
        await control.endWindow();
      }
      // The next window of ours starts with no events or ids on disk, as this one did.
      await new Promise((r) => setTimeout(r, 1000));
      for (const f of existsSync(storage) ? readdirSync(storage) : []) if (/^webhook-(events|ids)/.test(f)) rmSync(join(storage, f), { force: true });
    }
  }
  return result;
}
