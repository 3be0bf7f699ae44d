// Bundles the extension and the emulator CLI. Type checking is separate (`npm run typecheck`).
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import * as esbuild from 'esbuild';
import { subsetCodicons } from './scripts/codicons.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  // Warnings and errors only: the info table flags every bundle over 1 MB (the emulator carries a
  // tokenizer, test bundles carry the emulator), which reads as a problem on every build.
  logLevel: watch ? 'info' : 'warning',
};

/** The emulator CLI loads the emulator from its library bundle instead of carrying a second copy. */
const emulatorFromLibrary = {
  name: 'emulator-from-library',
  setup(build) {
    build.onResolve({ filter: /^\.\/server$/, namespace: 'file' }, (args) => (args.importer.endsWith('cli.ts') ? { path: './emulator-lib.js', external: true } : undefined));
  },
};

/**
 * Libraries of most of a megabyte that more than one bundle uses: each ships once, in its own
 * bundle in dist/, and the others require it from there (`map`: import → bundle file).
 */
const fromSharedBundles = (map) => ({
  name: 'shared-bundles',
  setup(build) {
    build.onResolve({ filter: /^(undici|gpt-tokenizer|@vscode\/l10n)(\/|$)/ }, (args) => (map[args.path] ? { path: map[args.path], external: true } : undefined));
  },
});
/** @vscode/l10n is small, but its translations are module state: one copy that every host bundle shares. */
const L10N = { '@vscode/l10n': './l10n.js' };
const SHARED = { undici: './undici.js', 'gpt-tokenizer': './tokenizer.js', 'gpt-tokenizer/encoding/o200k_base': './tokenizer.js', ...L10N };

/**
 * The o200k ranks (200,000 tokens) are most of the package: shipped brotli-compressed as
 * dist/o200k.br, a third smaller than the zip's deflate of the same array as JavaScript, and read
 * by dist/tokenizer.js when it loads. The same array, so the same counts.
 */
const O200K_RANKS = 'dist/o200k.br';
const o200kRanksFromFile = {
  name: 'o200k-ranks-from-file',
  setup(build) {
    build.onLoad({ filter: /gpt-tokenizer[\\/](esm|cjs)[\\/]bpeRanks[\\/]o200k_base\.js$/ }, () => ({
      loader: 'js',
      contents: [
        "import { readFileSync } from 'node:fs';",
        "import { join } from 'node:path';",
        "import { brotliDecompressSync } from 'node:zlib';",
        "const lines = brotliDecompressSync(readFileSync(join(__dirname, 'o200k.br'))).toString('utf8').split('\\n');",
        `export default lines.map(${decodeRank.toString()});`,
      ].join('\n'),
    }));
  },
};

/**
 * One rank a line, in rank order: a token that is plain text stands as it is; one that holds a line
 * break, a backslash or U+0001, or that is not text (an array of bytes), as U+0001 and its JSON. The
 * array's quotes and commas are 30 KB of the package even after brotli.
 */
const encodeRank = (t) => (typeof t === 'string' && !/[\n\r\\\u0001]/.test(t) ? t : `\u0001${JSON.stringify(t)}`);
function decodeRank(line) {
  return line.charCodeAt(0) === 1 ? JSON.parse(line.slice(1)) : line;
}

/** Writes dist/o200k.br unless it is newer than the package's ranks (compressing takes seconds). */
function writeO200kRanks() {
  const require = createRequire(import.meta.url);
  const source = require.resolve('gpt-tokenizer/bpeRanks/o200k_base');
  const built = existsSync(O200K_RANKS) ? statSync(O200K_RANKS).mtimeMs : 0;
  // Rewritten when the library's ranks or this file's format (below) changed since.
  if (built > statSync(source).mtimeMs && built > statSync(new URL(import.meta.url)).mtimeMs) return;
  const ranks = require(source).default;
  const text = ranks.map(encodeRank).join('\n');
  // The file must read back as the very same ranks, or token counts would silently drift.
  if (JSON.stringify(text.split('\n').map(decodeRank)) !== JSON.stringify(ranks)) throw new Error('o200k ranks do not round-trip through dist/o200k.br');
  const bytes = Buffer.from(text);
  const params = { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_LGWIN]: 24, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length };
  mkdirSync('dist', { recursive: true });
  writeFileSync(O200K_RANKS, brotliCompressSync(bytes, { params }));
}

/**
 * `vscode` for the extension's bundles: esbuild turns every `import * as vscode from 'vscode'` (one
 * per file) into its own copy of the API object's hundreds of properties, each time the bundle
 * loads. One module re-exports it instead, so activation makes that copy once.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

const builds = [
  // The extension: `vscode` is provided by the host at run time.
  { ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', plugins: [vscodeOnce, fromSharedBundles(L10N)] },
  // The emulator CLI: `node dist/emulator.js [--port N] ...` (a few KB: it requires emulator-lib.js).
  { ...common, entryPoints: { emulator: 'src/emulator/cli.ts' }, outdir: 'dist', plugins: [emulatorFromLibrary, fromSharedBundles(L10N)] },
  // The emulator as a library, required by the extension only when the user starts it.
  // It loads undici and the tokenizer from their own bundles.
  { ...common, entryPoints: { 'emulator-lib': 'src/emulator/server.ts' }, outdir: 'dist', plugins: [fromSharedBundles(SHARED)] },
  // The o200k tokenizer, required on the first token count VS Code's chat asks for, and by the emulator.
  { ...common, entryPoints: { tokenizer: 'src/bundles/tokenizer.ts' }, outdir: 'dist', plugins: [o200kRanksFromFile] },
  // undici, required by the network stack and the emulator. `esbuildDetection` is undici's switch for
  // bundlers (Node's own bundle of it sets it too): it leaves out Milo, an experimental second HTTP
  // parser (two WebAssembly builds, 150 KB) that undici only uses when asked to.
  { ...common, entryPoints: { undici: 'src/bundles/undici.ts' }, outdir: 'dist', define: { esbuildDetection: 'true' } },
  // The network stack (clients, chat engine, listener, tunnels), required on first use
  // (src/vscode/bundles.ts): activation draws the trees and registers commands without it.
  { ...common, entryPoints: { network: 'src/bundles/network.ts' }, outdir: 'dist', plugins: [fromSharedBundles(SHARED)] },
  // The webhook listener's own process, forked on the first listen (src/webhooks/receive/childListener.ts): plain Node.
  { ...common, entryPoints: { 'webhook-listener': 'src/webhooks/receive/childMain.ts' }, outdir: 'dist', plugins: [fromSharedBundles(SHARED)] },
  // Inline suggestions, required once a deployment is chosen for them (src/vscode/bundles.ts).
  { ...common, entryPoints: { inline: 'src/vscode/inline/bundle.ts' }, outdir: 'dist', external: ['vscode'], plugins: [fromSharedBundles(L10N)] },
  // The usage log and its tables, required on the first record, read or view (src/vscode/bundles.ts).
  { ...common, entryPoints: { 'usage-log': 'src/bundles/usage.ts' }, outdir: 'dist', plugins: [fromSharedBundles(L10N)] },
  // Traces in the editor (store, export, timeline), required on the first traced reply or Show Trace (src/vscode/bundles.ts).
  { ...common, entryPoints: { trace: 'src/vscode/trace/bundle.ts' }, outdir: 'dist', external: ['vscode'], plugins: [fromSharedBundles(L10N)] },
  // Webhook fixtures (save, send, scenario, catalog), required on the first fixture command (src/vscode/layerBundles.ts).
  { ...common, entryPoints: { fixtures: 'src/vscode/fixtures/bundle.ts' }, outdir: 'dist', external: ['vscode'], plugins: [fromSharedBundles(L10N)] },
  // OpenTelemetry's OTLP/HTTP exporter, required only when the user set an OTLP endpoint (src/vscode/bundles.ts).
  // OpenTelemetry's ES module builds: esbuild can leave out what the exporter does not use (the
  // CommonJS ones pull in all of semantic-conventions and sdk-metrics: 263 KB instead of 27).
  { ...common, entryPoints: { otlp: 'src/bundles/otlp.ts' }, outdir: 'dist', mainFields: ['module', 'main'] },
  // The pages' fixed markup: drawn when a panel opens, not at activation.
  { ...common, entryPoints: { markup: 'src/bundles/markup.ts' }, outdir: 'dist', plugins: [fromSharedBundles(L10N)] },
  // @azure/identity (Azure CLI, DefaultAzureCredential), required only when a connection uses it.
  { ...common, entryPoints: { identity: 'src/auth/identity.ts' }, outdir: 'dist', plugins: [fromSharedBundles(L10N)] },
  // @vscode/l10n: the core's strings in the user's language, configured at activation (src/vscode/strings.ts).
  { ...common, entryPoints: { l10n: 'src/bundles/l10n.ts' }, outdir: 'dist' },
  // The chat and compare pages' script (they run in webviews, browsers): one bundle, since both are
  // mostly the same Markdown renderer (src/webview/pages.ts picks the page).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { pages: 'src/webview/pages.ts' }, outdir: 'dist/webview' },
  // The delivery inspector's page script (a webview too).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { inspector: 'src/webview/inspector/main.ts' }, outdir: 'dist/webview' },
  // The usage view's page script (a webview too).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { usage: 'src/webview/usage/main.ts' }, outdir: 'dist/webview' },
  // Tests that run inside a real VS Code extension host (loaded by test/host/index.ts).
  // `proxy` is an ES module that reads its own package.json: loaded from node_modules instead.
  { ...common, entryPoints: ['test/host/*.ts'], outdir: 'dist/test/host', external: ['vscode', 'mocha', 'proxy'], minify: false },
];

// Codicons for the webviews, served from the extension's own folder: only the icons the pages use
// (scripts/codicons.mjs), a tenth of the font.
mkdirSync('dist/codicons', { recursive: true });
const codicons = await subsetCodicons('.');
writeFileSync('dist/codicons/codicon.css', codicons.css);
writeFileSync('dist/codicons/codicon.ttf', codicons.ttf);

writeO200kRanks();
// The host test entry loads every test file in this folder: none of a test renamed or removed may stay.
rmSync('dist/test/host', { recursive: true, force: true });
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`built ${builds.length} bundles into dist/${production ? ' (minified)' : ''} in ${Date.now() - started} ms`);
}
