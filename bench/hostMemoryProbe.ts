/**
 * The probe each window of `bench/hostMemory.ts` runs inside its extension host (`extensionTestsPath`):
 * it does a working session step by step and reads `process.memoryUsage()` after each. Ours: the
 * sidebar, chat replies through VS Code's language model API, the listener taking the deliveries
 * this process has the emulator send, batch results opened with our command. The minimal window
 * makes the same outside calls where it can (the same chat completions streamed from the emulator,
 * the same batch output files downloaded, over node:http); it has no listener, so no deliveries.
 */
import { MINIMAL, OURS } from './activation';

export function probeScript(laterMs: number): string {
  return `
const vscode = require('vscode');
const http = require('http');
const kb = (status, key) => { const line = status.split(String.fromCharCode(10)).find((l) => l.startsWith(key + ':')); return line ? parseInt(line.slice(key.length + 1), 10) * 1024 : undefined; };
const mem = () => {
  const m = process.memoryUsage();
  let status = '';
  try { status = require('fs').readFileSync('/proc/self/status', 'utf8'); } catch {}
  const code = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'code_space');
  const sample = { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, anon: kb(status, 'RssAnon'), file: kb(status, 'RssFile'), code: code && code.space_size };
  sample.child = childRss();
  const more = process.env.BENCH_MEMORY_GCS ? { ...sample, gcs: scavenges() } : sample;
  return process.env.BENCH_MEMORY_SMAPS ? { ...more, maps: maps(), loaded: loaded(), spaces: spaces() } : more;
};
// The RSS of this host's webhook listener process (dist/webhook-listener.js, forked on the first
// listen): the user's machine pays for it too. 0 before it starts, and in the minimal window.
const childRss = () => {
  const fs = require('fs');
  let total = 0;
  for (const d of fs.readdirSync('/proc')) {
    if (!Number.isInteger(Number(d))) continue;
    try {
      const stat = fs.readFileSync('/proc/' + d + '/stat', 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      if (!fs.readFileSync('/proc/' + d + '/cmdline', 'utf8').includes('webhook-listener')) continue;
      total += kb(fs.readFileSync('/proc/' + d + '/status', 'utf8'), 'VmRSS') || 0;
    } catch {}
  }
  return total;
};
// Investigation only (BENCH_MEMORY_GCS=1): the scavenges since the last sample, from V8's GC profiler
// (no flags needed): how many, what survived them (copied within new space + promoted to old space,
// both V8's count towards doubling new space), what survived before a scavenge that grew it, and
// the full collections.
const profiler = process.env.BENCH_MEMORY_GCS && new (require('v8').GCProfiler)();
if (profiler) profiler.start();
function scavenges() {
  const { statistics } = profiler.stop();
  profiler.start();
  const used = (s, name) => { const x = s.heapSpaceStatistics.find((y) => y.spaceName === name); return x ? x.spaceUsedSize : 0; };
  const size = (s) => s.heapSpaceStatistics.find((y) => y.spaceName === 'new_space').spaceSize;
  const out = { scavenges: 0, survived: 0, grewAfter: [], full: 0, newSpace: [] };
  for (const g of statistics) {
    const b = g.beforeGC, a = g.afterGC;
    if (g.gcType !== 'Scavenge') { if (g.gcType === 'MarkSweepCompact') out.full++; continue; }
    out.scavenges++;
    out.survived += used(a, 'new_space') + used(a, 'new_large_object_space') + used(a, 'old_space') - used(b, 'old_space') + used(a, 'large_object_space') - used(b, 'large_object_space');
    if (size(a) > size(b)) out.grewAfter.push(mb(out.survived));
    if (!out.newSpace.includes(mb(size(a)))) out.newSpace.push(mb(size(a)));
  }
  out.survived = mb(out.survived);
  return out;
}
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
/** A loopback call over node:http; resolves to the answer's text (a 200 only). */
function call(url, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      const fail = () => reject(new Error(method + ' ' + url + ': ' + res.statusCode + ' ' + text.slice(0, 300)));
      res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => (res.statusCode === 200 ? resolve(text) : fail()));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const step = async (name) => JSON.parse(await call(process.env.BENCH_CONTROL + '/' + name));
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
  const replies = Number(process.env.BENCH_MEMORY_REPLIES);
  const settle = () => sleep(2000);
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
    if (name !== 'batches') await startSampling();
    else sampling.disconnect();
  };
  const measure = async (name) => {
    await settle();
    out[name] = mem();
    await sampled(name);
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
  await measure('view');
  let conn;
  let reply;
  // Our commands ask first when plain arguments come from outside our views (askFirst.ts): the
  // probe marks its arguments as our UI's, through the command AOAI_WORKBENCH_TEST_INTERNALS=1 adds.
  const owned = ours ? (await exec('aoaiWorkbench.test.internals')).owned : (a) => a;
  if (ours) {
    conn = await exec('aoaiWorkbench.addConnection', owned({ endpoint: emu.url, apiKey: emu.apiKey, label: 'Bench' }));
    const models = await eventually('the emulator deployments in the model list', async () =>
      (await vscode.lm.selectChatModels({ vendor: 'azure-openai' })).filter((m) => m.id.startsWith(conn.id + '/')));
    const model = models.find((m) => m.id.endsWith('/gpt-4o')) || models[0];
    reply = async (i) => {
      const res = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello (' + i + ')')], {});
      let text = '';
      for await (const t of res.text) text += t;
      if (!text) throw new Error('chat reply ' + i + ' was empty');
    };
  } else {
    // Adding a connection writes a user setting, which makes VS Code open settings.json (JSON with
    // comments) and activate the built-in TypeScript and JavaScript support: the reference does as much.
    const editor = vscode.workspace.getConfiguration('editor');
    await editor.update('minimap.enabled', !editor.get('minimap.enabled'), vscode.ConfigurationTarget.Global);
    // The same completions, streamed from the emulator and read to the end.
    reply = async (i) => {
      const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Say hello (' + i + ')' }] });
      const text = await call(emu.url + '/openai/v1/chat/completions', { headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body });
      if (!text.includes('[DONE]')) throw new Error('chat reply ' + i + ' did not end');
    };
  }
  await reply(0);
  await measure('chat');
  for (let i = 1; i < replies; i++) await reply(i);
  await measure('replies');
  // Investigation only: deliveries with the sidebar closed, so VS Code draws no rows.
  if (process.env.BENCH_MEMORY_HIDE_VIEW) await exec('workbench.action.closeSidebar');
  if (ours) await exec('aoaiWorkbench.startListening', owned({ connectionId: conn.id, endpoint: { mode: 'create', name: 'bench', eventTypes: [process.env.BENCH_MEMORY_EVENT] } }));
  await step('deliver');
  await measure('delivered');
  // Finished batches on the service: ours opens each one's results (then closes the tab, as one
  // does after a look); the minimal window downloads the same output files.
  for (const b of await step('batches')) {
    if (ours) {
      const doc = await exec('aoaiWorkbench.openBatchResults', owned({ connectionId: conn.id, batchId: b.id }));
      if (!doc || !/\\d+ rows/.test(doc.getText())) throw new Error('the results of ' + b.id + ' did not open');
      await exec('workbench.action.closeActiveEditor');
    } else {
      const text = await call(emu.url + '/openai/v1/files/' + b.outputFileId + '/content', { method: 'GET', headers: { 'api-key': emu.apiKey } });
      if (!text) throw new Error('the output of ' + b.id + ' was empty');
    }
  }
  await measure('batches');
  // What a user sees once the work is over: V8 shrinks an idle heap on its own some seconds later.
  await sleep(${laterMs} - 2000);
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
}
