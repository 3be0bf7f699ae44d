/**
 * Activation in the real VS Code host: code-server started as the host tests start it, with our
 * extension installed from the .vsix `npm run package` builds and, beside it, a minimal extension
 * (an empty `activate`) and a "hello world" (requires vscode, registers a command) installed the
 * same way. Each round opens a fresh window (a new extension host) whose probe activates all three,
 * in rotating order so none always pays the host's first-activation costs, and reads the extension host's own performance marks around loading the
 * code (`code/extHost/willLoadExtensionCode/<id>` to `didLoadExtensionCode/<id>`) and calling
 * activate (`willActivateExtension/<id>` to `didActivateExtension/<id>`): their sum is what
 * "Developer: Show Running Extensions" shows as an extension's activation time. The wait for the
 * extension's context (its storage, from the window) lies between the two and is the same for any
 * extension: it is reported, not counted. Also the main bundle's size against its goal.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ACTIVATION_ROUNDS ?? 7);
/** Another package to measure instead of this checkout's (e.g. an older build, for a before/after figure). */
const OTHER_VSIX = process.env.BENCH_ACTIVATION_VSIX;
const ROUND_TIMEOUT_MS = 120_000;
export const OURS = 'aoai-workbench.aoai-workbench';
export const MINIMAL = 'aoai-workbench-bench.minimal';
/** The minimal extension: an empty activate. */
export const MINIMAL_CODE = 'exports.activate = () => {};\n';
const HELLO = 'aoai-workbench-bench.hello';
const BUNDLES = ['extension.js', 'network.js', 'undici.js', 'identity.js', 'emulator-lib.js', 'tokenizer.js', 'o200k.br'];

/** What scripts/host/codeServer.mjs offers (plain JavaScript, shared with the host test runner). */
export interface CodeServer {
  port: number;
  root: string;
  output(): string;
  stop(): Promise<void>;
}
export interface CodeServerScripts {
  startCodeServer(opts: { extraArgs?: string[]; vsix?: string[] }): Promise<CodeServer>;
  testHarnessExtension(server: CodeServer): string;
  workbenchUrl(server: CodeServer, opts: { extensionPath?: string; testsPath?: string; env?: Record<string, string> }): string;
  CHROMIUM_ARGS: string[];
  chromiumPath(): string;
}

/** One extension's activation in one window, in ms, from the extension host's marks. */
export interface Activation {
  /** Requiring the main module. */
  load: number;
  /** Calling activate() until it (and its promise) returned. */
  call: number;
  /** load + call: the activation time VS Code shows. */
  own: number;
  /** From the start of loading to activate() having returned, the wait for the context included. */
  total: number;
}

export interface ActivationResult {
  ours: Activation[];
  minimal: Activation[];
  /** A "hello world": requires `vscode` (the host builds its API object then) and registers one command. */
  hello: Activation[];
  bundles: Record<string, number>;
}

/** Runs inside the extension host as `extensionTestsPath`: activates both and prints the marks. */
const PROBE = `
const vscode = require('vscode');
exports.run = async () => {
  const ids = JSON.parse(process.env.BENCH_ACTIVATE);
  for (const id of ids) {
    const ext = vscode.extensions.getExtension(id);
    if (!ext) throw new Error(id + ' is not installed');
    await ext.activate();
  }
  const marks = globalThis.MonacoPerformanceMarks ? globalThis.MonacoPerformanceMarks.getMarks() : [];
  const at = (name) => (marks.find((m) => m.name === name) || {}).startTime;
  const out = {};
  for (const id of ids) {
    out[id] = ['willLoadExtensionCode', 'didLoadExtensionCode', 'willActivateExtension', 'didActivateExtension'].map((m) => at('code/extHost/' + m + '/' + id));
  }
  console.log('BENCH-ACTIVATION ' + JSON.stringify(out));
};
`;

function run(cmd: string, args: string[], cwd: string): void {
  try {
    execFileSync(cmd, args, { cwd, stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/** A .vsix of a reference extension with this code, packed by the same vsce. */
export function referenceVsix(dir: string, name: string, code: string): string {
  const ext = join(dir, name);
  mkdirSync(ext, { recursive: true });
  const manifest = { name, publisher: 'aoai-workbench-bench', version: '0.0.1', engines: { vscode: '^1.100.0' }, main: './extension.js', activationEvents: [`onCommand:aoaiWorkbenchBench.${name}`] };
  writeFileSync(join(ext, 'package.json'), JSON.stringify(manifest));
  writeFileSync(join(ext, 'extension.js'), code);
  writeFileSync(join(ext, 'README.md'), 'A reference of the activation benchmark.\n');
  const vsix = join(dir, `${name}.vsix`);
  run(join(root, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], ext);
  return vsix;
}

/** What users install: this checkout's production bundles, packaged (or BENCH_ACTIVATION_VSIX). */
export function ourVsix(): string {
  if (OTHER_VSIX) return OTHER_VSIX;
  run('npm', ['run', 'package', '--silent'], root);
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  return join(root, `aoai-workbench-${version}.vsix`);
}

export async function codeServerScripts(): Promise<CodeServerScripts> {
  return (await import(pathToFileURL(join(root, 'scripts', 'host', 'codeServer.mjs')).href)) as CodeServerScripts;
}

export async function benchActivation(): Promise<ActivationResult> {
  const ours = ourVsix();
  const dir = mkdtempSync(join(tmpdir(), 'bench-activation-'));
  const scripts = await codeServerScripts();
  try {
    return await measure(scripts, dir, ours);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(scripts: CodeServerScripts, dir: string, ours: string): Promise<ActivationResult> {
  const probe = join(dir, 'probe.js');
  writeFileSync(probe, PROBE);
  // A short grace time: each round's window leaves, and its extension host should not linger.
  const server = await scripts.startCodeServer({
    extraArgs: ['--vscode-option', 'enable-smoke-test-driver', '--reconnection-grace-time', '5'],
    vsix: [
      ours,
      referenceVsix(dir, 'minimal', MINIMAL_CODE),
      referenceVsix(dir, 'hello', "const vscode = require('vscode');\nexports.activate = (c) => c.subscriptions.push(vscode.commands.registerCommand('aoaiWorkbenchBench.hello', () => {}));\n"),
    ],
  });
  // Sizes as installed: the bundles in the extension's folder, the ones the host loads.
  const installed = join(server.root, 'extensions', readdirSync(join(server.root, 'extensions')).find((d) => d.startsWith(`${OURS}-`)) ?? '');
  const bundles = Object.fromEntries(BUNDLES.filter((f) => existsSync(join(installed, 'dist', f))).map((f) => [f, statSync(join(installed, 'dist', f)).size]));
  const result: ActivationResult = { ours: [], minimal: [], hello: [], bundles };
  const browser = await chromium.launch({ executablePath: scripts.chromiumPath(), args: scripts.CHROMIUM_ARGS }).catch(async (err) => {
    await server.stop();
    throw err;
  });
  try {
    const page = await (await browser.newContext()).newPage();
    let onLine: (line: string) => void = () => {};
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown) => onLine(String(Array.isArray(args) ? args.join(' ') : args)));
    await page.exposeFunction('codeAutomationExit', () => undefined);
    const harness = scripts.testHarnessExtension(server);
    for (let round = 0; round < ROUNDS; round++) {
      // Each extension goes first in some rounds: the first activation in a host pays its warm-up.
      const ids = [OURS, MINIMAL, HELLO];
      const order = [...ids.slice(round % 3), ...ids.slice(0, round % 3)];
      const line = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`round ${round + 1}: no activation marks within ${ROUND_TIMEOUT_MS / 1000} s:\n${server.output().slice(-3000)}`)), ROUND_TIMEOUT_MS);
        onLine = (l) => {
          if (!l.startsWith('BENCH-ACTIVATION ')) return;
          clearTimeout(timer);
          resolve(l.slice('BENCH-ACTIVATION '.length));
        };
      });
      line.catch(() => undefined); // awaited below; goto may fail first
      await page.goto(scripts.workbenchUrl(server, { extensionPath: harness, testsPath: probe, env: { BENCH_ACTIVATE: JSON.stringify(order) } }));
      const marks = JSON.parse(await line) as Record<string, Array<number | undefined>>;
      for (const [id, list] of [[OURS, result.ours], [MINIMAL, result.minimal], [HELLO, result.hello]] as const) {
        const [willLoad, didLoad, willActivate, didActivate] = marks[id];
        if ([willLoad, didLoad, willActivate, didActivate].some((m) => m === undefined)) throw new Error(`the extension host recorded no activation marks for ${id}: ${JSON.stringify(marks)}`);
        const load = didLoad! - willLoad!;
        const call = didActivate! - willActivate!;
        list.push({ load, call, own: load + call, total: didActivate! - willLoad! });
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return result;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
