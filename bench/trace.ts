/**
 * Issue 39, point 4: what a turn's trace costs its request, and how soon the timeline page shows one.
 * (a) Spans built and kept (exporter off), as the panel's tracedRun does: the trace builder
 *     observing the runner's hooks, the request's report kept, the end, and the store's add (with
 *     no write due, as for turns seconds apart: the add schedules the store's wake-up), against
 *     one chat request through the runner to the emulator on loopback. The caller's share
 *     (wall); then what the store does after the caller's turn (the spans built from the report,
 *     kept, announced), timed apart before the next request; and the whole cost with the disk
 *     write (CPU time of the process).
 * (b) The same with the OTLP exporter on, sending each trace to a collector on loopback (a plain
 *     node:http server): CPU time of the process per trace exported, against the same request.
 * (c) Show Trace for a turn of 50 spans: from the navigation of the page's document (Chromium, the
 *     real pages script and stylesheets under its CSP, the trace posted as the page says ready) to
 *     the spans drawn, by the page's own clock; median of rounds after a warm-up.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiMemory } from '../src/chat/apiMemory';
import { PANEL_RUN } from '../src/chat/engine/options';
import type { RequestReport } from '../src/chat/engine/report';
import { runChat, type RunRequest } from '../src/chat/engine/runner';
import { startEmulator } from '../src/emulator/server';
import { AzureOpenAIClient } from '../src/service/client';
import { TraceBuilder } from '../src/trace/builder';
import { TraceExportQueue } from '../src/trace/exportQueue';
import { OtlpTraceSender } from '../src/trace/otlp';
import { TraceStore } from '../src/trace/traceStore';
import { pageDocument } from '../src/webview/shared/pageDocument';
import { traceBodyHtml } from '../src/webview/trace/markup';
import { buildPageScript, launch } from '../test/support/pageHarness';
import { THEMES } from '../test/support/pageThemes';
import { sampleTrace } from '../test/support/traces';

const ROUNDS = 200;
/** A collector on loopback: takes OTLP/HTTP posts and answers 200; prints its port. */
const COLLECTOR = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.writeHead(200, { 'content-type': 'application/json' }).end('{}')); })
  .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

export interface TraceBench {
  requestMs: number;
  rounds: number;
  /** The caller's share: the builder, the report kept, the end, handed to the store (median, µs). */
  keepUs: number;
  /** After the caller's turn: the spans built from it, kept in the store (median, µs). */
  builtUs: number;
  /** CPU per trace, spans built, kept and written to disk (µs). */
  keepCpuUs: number;
  /** CPU per trace exported over OTLP/HTTP to the loopback collector through the export queue (batches of 64), awaited (µs). */
  exportCpuUs: number;
  /** The same, each trace a request of its own (µs). */
  exportSingleCpuUs: number;
  pageReadyMs: number;
  pageRounds: number;
}

async function requestsAndTraces(): Promise<Omit<TraceBench, 'pageReadyMs' | 'pageRounds'>> {
  const gpt4o = { name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', sku: 'Standard' as const, capacity: 1, requestsPerMinute: 1e6, tokensPerMinute: 1e9 };
  const emu = await startEmulator({ config: { deployments: [gpt4o] } });
  const client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  const dir = mkdtempSync(join(tmpdir(), 'bench-traces-'));
  const store = await TraceStore.open(join(dir, 'traces.jsonl'), 200);
  // The collector runs in a process of its own: its CPU is not the extension's.
  const collector = spawn(process.execPath, ['-e', COLLECTOR], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => collector.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  const sender = new OtlpTraceSender(`http://127.0.0.1:${port}`, 'bench');
  const base = (onReport?: (r: RequestReport) => void): RunRequest => ({
    client, deployment: 'gpt-4o', model: 'gpt-4o', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
    sampling: {}, signal: new AbortController().signal, onText: () => {}, onReport, apiMemory: new ApiMemory(),
  });
  try {
    const requestMs: number[] = [];
    const keepUs: number[] = [];
    const builtUs: number[] = [];
    const reports: RequestReport[] = [];
    for (let i = 0; i < ROUNDS + 20; i++) {
      const t0 = process.hrtime.bigint();
      const result = await runChat(base((r) => reports.push(r)), PANEL_RUN);
      const t1 = process.hrtime.bigint();
      // What the traced turn adds, on the caller's path, with the report this request gave.
      const report = reports[reports.length - 1];
      const next = base();
      const k0 = process.hrtime.bigint();
      const b = new TraceBuilder('turn', 'gpt-4o', { captureContent: false, server: { address: '127.0.0.1' } });
      const observed = b.observe(next);
      observed.onReport!(report);
      store.add(b.end({ result }));
      const k1 = process.hrtime.bigint();
      // What moved off the caller's path, timed here in full before the next request: the spans
      // built, kept and announced (as the store does after the caller's turn; reading builds them).
      if (store.all().at(-1)?.traceId !== b.traceId) throw new Error('the trace was not kept');
      const k2 = process.hrtime.bigint();
      if (i >= 20) (requestMs.push(Number(t1 - t0) / 1e6), keepUs.push(Number(k1 - k0) / 1e3), builtUs.push(Number(k2 - k1) / 1e3));
      // Written before the next request, as for turns seconds apart: each trace finds no write
      // due, so its add pays the store's wake-up (a trace among others of a moment would not).
      await store.flush();
    }
    await store.flush();
    // The whole keeping, writes included, in CPU time: traces a request apart (each write alone).
    const report = reports[reports.length - 1];
    const result = await runChat(base(), PANEL_RUN);
    let keepCpu = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const c0 = cpuUs();
      const b = new TraceBuilder('turn', 'gpt-4o', { captureContent: false });
      b.request(report);
      store.add(b.end({ result }));
      await store.flush();
      keepCpu += cpuUs() - c0;
    }
    // Exported as the setting exports them (gathered, one OTLP request per batch), and one trace a request for information.
    const traces = store.all().slice(-ROUNDS);
    await sender.send([traces[0]]);
    const queue = new TraceExportQueue({ send: (batch) => sender.send(batch) });
    const e0 = cpuUs();
    for (const t of traces) queue.add(t);
    await queue.flush();
    const exportCpu = cpuUs() - e0;
    const s0 = cpuUs();
    for (const t of traces) await sender.send([t]);
    const singleCpu = cpuUs() - s0;
    return {
      requestMs: median(requestMs), rounds: ROUNDS, keepUs: median(keepUs), builtUs: median(builtUs), keepCpuUs: keepCpu / ROUNDS,
      exportCpuUs: exportCpu / traces.length, exportSingleCpuUs: singleCpu / traces.length,
    };
  } finally {
    await sender.shutdown();
    collector.kill();
    await client.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs in the page before its script, as the extension's side: answers the page's `ready` with the
 * trace at once (as the panel does) and notes the page's clock (ms since navigation began) when the
 * spans are drawn.
 */
const ANSWER_READY = (trace: string, vars: string) => `
new MutationObserver(() => { if (document.body && document.body.dataset.ready) window.__readyAt ??= performance.now(); })
  .observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
document.addEventListener('DOMContentLoaded', () => {
  for (const [k, v] of Object.entries(${vars})) document.documentElement.style.setProperty('--vscode-' + k, v);
});
window.acquireVsCodeApi = () => ({ postMessage: (m) => { if (m.type === 'ready') window.postMessage({ type: 'trace', trace: ${trace} }, '*'); }, setState() {}, getState() {} });`;

async function pageReady(rounds = 11): Promise<number> {
  const browser = await launch();
  try {
    const script = await buildPageScript('pages');
    const origin = 'http://page.test';
    const html = pageDocument({
      ...{ lang: 'en', cspSource: origin, nonce: 'n', title: 'Trace', style: 'trace.css', page: 'trace', script: 'pages.js' },
      asset: (...p) => `${origin}/${p.join('/')}`,
      body: traceBodyHtml(),
    });
    const file = (path: string) => readFileSync(join(__dirname, '..', path.replace(/^dist\/codicons\//, 'node_modules/@vscode/codicons/dist/')));
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    await context.addInitScript(ANSWER_READY(JSON.stringify(sampleTrace(50)), JSON.stringify(THEMES.dark)));
    await context.route(`${origin}/**`, (route) => {
      const path = new URL(route.request().url()).pathname.slice(1);
      if (path === '') return route.fulfill({ contentType: 'text/html', body: html });
      if (path.endsWith('.js')) return route.fulfill({ contentType: 'text/javascript', body: script });
      return route.fulfill({ contentType: path.endsWith('.css') ? 'text/css' : 'font/ttf', body: file(path) });
    });
    const times: number[] = [];
    for (let i = 0; i < rounds + 1; i++) {
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      if ((await page.locator('.span').count()) !== 50) throw new Error('the page did not draw 50 spans');
      if (i > 0) times.push((await page.evaluate('window.__readyAt')) as number);
      await page.close();
    }
    return median(times);
  } finally {
    await browser.close();
  }
}

export async function benchTrace(): Promise<TraceBench> {
  const r = await requestsAndTraces();
  return { ...r, pageReadyMs: await pageReady(), pageRounds: 11 };
}

if (require.main === module) void benchTrace().then((r) => console.log(JSON.stringify(r, null, 2)));
