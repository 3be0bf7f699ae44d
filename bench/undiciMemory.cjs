// What dist/undici.js costs a process by itself (issue #25): RSS, anonymous and file-backed, of a
// fresh Node process that (a) does nothing, (b) loads the bundle, (c) loads it and sends 300
// sequential loopback requests through it, (d) sends the same requests with node:http's client and
// no undici; and the Node modules the bundle loads, without it (with and without http2); and
// undici's HTTP parser alone (`llhttp`). Each case
// runs in its own process, RUNS times. Not shipped; run after `npm run build`:
//   node bench/undiciMemory.cjs [runs]    (UNDICI_MEMORY_NODE=/path/to/node picks another Node,
//   UNDICI_MEMORY_REQUESTS=n another number of requests)
// CommonJS on purpose: an ES module's `import 'node:http'` also loads http2, assert and tls (Node
// 24), which would hide what undici itself loads.
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');

const REQUESTS = Number(process.env.UNDICI_MEMORY_REQUESTS ?? 300);
const CASES = ['baseline', 'load', 'undici', 'http', 'modules', 'modules-no-h2', 'host:baseline', 'host:load', 'host:undici', 'host:http', 'llhttp'];
/**
 * `host:` cases first import node:http as an ES module, as VS Code's extension host does: in Node 24
 * that alone loads Node's own undici and with it assert, crypto, tls, os, http2 and perf_hooks.
 */
const HOST_LIKE = ['--import', 'data:text/javascript,import * as http from "node:http"'];
/** The public modules dist/undici.js loads, without undici: what they cost by themselves. */
const MODULES = ['assert', 'crypto', 'tls', 'os', 'http2'];

/** RSS and its anonymous and file parts (kB → MB), from /proc/self/status. */
function memory() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024, heap: process.memoryUsage().heapTotal / 2 ** 20 };
}

/**
 * Only undici's HTTP parser (llhttp built to WebAssembly): compiled, then given a response REQUESTS
 * times. V8 compiles it with Liftoff first, then with TurboFan once it is hot: the second compile is
 * what costs (compare with UNDICI_MEMORY_FLAGS=--liftoff-only).
 */
function parseWithLlhttp() {
  const noop = () => 0;
  const env = Object.fromEntries(['url', 'status', 'message_begin', 'header_field', 'header_value', 'headers_complete', 'body', 'message_complete'].map((n) => [`wasm_on_${n}`, noop]));
  const { exports: llhttp } = new WebAssembly.Instance(new WebAssembly.Module(require('undici/lib/llhttp/llhttp_simd-wasm.js')), { env });
  const response = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\n\r\n{"ok":true}');
  const parser = llhttp.llhttp_alloc(1); // a response parser
  const at = llhttp.malloc(4096);
  new Uint8Array(llhttp.memory.buffer, at, response.length).set(response);
  for (let i = 0; i < REQUESTS; i++) llhttp.llhttp_execute(parser, at, response.length);
}

async function child(kind) {
  kind = kind.replace(/^host:/, '');
  const server = createServer((req, res) => req.resume().on('end', () => res.end('{"ok":true}')));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const before = new Set(process.moduleLoadList);
  if (kind === 'llhttp') parseWithLlhttp();
  else if (kind.startsWith('modules')) {
    for (const m of MODULES) if (kind === 'modules' || m !== 'http2') require(`node:${m}`);
  } else if (kind === 'load' || kind === 'undici') {
    const undici = require('../dist/undici.js');
    if (kind === 'undici') {
      const agent = new undici.Agent();
      for (let i = 0; i < REQUESTS; i++) {
        const res = await undici.request(`${origin}/r${i}`, { method: 'POST', body: '{"n":1}', dispatcher: agent });
        await res.body.text();
      }
      await agent.close();
    }
  } else if (kind === 'http') {
    const { Agent, request } = require('node:http');
    const agent = new Agent({ keepAlive: true });
    for (let i = 0; i < REQUESTS; i++) {
      await new Promise((resolve, reject) => {
        const req = request(`${origin}/r${i}`, { method: 'POST', agent }, (res) => res.resume().on('end', resolve).on('error', reject));
        req.on('error', reject).end('{"n":1}');
      });
    }
    agent.destroy();
  }
  await new Promise((r) => server.close(r));
  // V8 compiles hot code on background threads: measured once that is done, as the host bench settles.
  await new Promise((r) => setTimeout(r, 1000));
  const loaded = process.moduleLoadList.filter((m) => !before.has(m) && /^NativeModule [a-z0-9_]+$/.test(m)).map((m) => m.slice(13));
  process.stdout.write(JSON.stringify({ ...memory(), loaded }));
}

/**
 * UNDICI_MEMORY_FLAGS: V8 flags for every child, e.g. `--liftoff-only` (no optimizing compile of
 * undici's HTTP parser, llhttp in WebAssembly) or `--no-opt --no-maglev` (no optimized JavaScript).
 * Not `--jitless`: it turns WebAssembly off, and undici cannot parse a response without it.
 */
const FLAGS = (process.env.UNDICI_MEMORY_FLAGS ?? '').split(' ').filter(Boolean);

function parent(runs) {
  const node = process.env.UNDICI_MEMORY_NODE ?? process.execPath;
  const rows = Object.fromEntries(CASES.map((c) => [c, []]));
  for (let run = 0; run < runs; run++) {
    for (const kind of CASES) rows[kind].push(JSON.parse(execFileSync(node, [...FLAGS, ...(kind.startsWith('host:') ? HOST_LIKE : []), __filename, '--child', kind], { encoding: 'utf8' })));
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fmt = (xs) => `${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(' ')})`;
  console.log(`node ${execFileSync(node, ['-v'], { encoding: 'utf8' }).trim()} ${FLAGS.join(' ')}, ${runs} runs each, MB, median (runs)`);
  console.log('| case | RSS | RssAnon | RssFile | V8 heapTotal | public modules loaded |');
  console.log('|---|---|---|---|---|---|');
  for (const kind of CASES) {
    const r = rows[kind];
    console.log(`| ${kind} | ${fmt(r.map((x) => x.rss))} | ${fmt(r.map((x) => x.anon))} | ${fmt(r.map((x) => x.file))} | ${fmt(r.map((x) => x.heap))} | ${r[0].loaded.join(' ')} |`);
  }
}

if (process.argv[2] === '--child') void child(process.argv[3]);
else parent(Number(process.argv[2] ?? 3));
