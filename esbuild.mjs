// Bundles the extension and the emulator CLI. Type checking is separate (`npm run typecheck`).
import { copyFileSync, mkdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

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
  { ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', plugins: [vscodeOnce] },
  // The emulator CLI: `node dist/emulator.js [--port N] ...` (a few KB: it requires emulator-lib.js).
  { ...common, entryPoints: { emulator: 'src/emulator/cli.ts' }, outdir: 'dist', plugins: [emulatorFromLibrary] },
  // The emulator as a library, required by the extension only when the user starts it.
  { ...common, entryPoints: { 'emulator-lib': 'src/emulator/server.ts' }, outdir: 'dist' },
  // The o200k tokenizer, required on the first token count VS Code's chat asks for.
  { ...common, entryPoints: { tokenizer: 'src/chat/lm/o200k.ts' }, outdir: 'dist' },
  // The network stack (undici, clients, chat engine, listener, tunnels), required on first use
  // (src/vscode/bundles.ts): activation draws the trees and registers commands without it.
  { ...common, entryPoints: { network: 'src/bundles/network.ts' }, outdir: 'dist' },
  // The usage log and its tables, required on the first record, read or view (src/vscode/bundles.ts).
  { ...common, entryPoints: { 'usage-log': 'src/bundles/usage.ts' }, outdir: 'dist' },
  // @azure/identity (Azure CLI, DefaultAzureCredential), required only when a connection uses it.
  { ...common, entryPoints: { identity: 'src/auth/identity.ts' }, outdir: 'dist' },
  // The chat panel's page script (runs in the webview, a browser).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { chat: 'src/webview/chat/main.ts' }, outdir: 'dist/webview' },
  // The compare panel's page script (a webview too).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { compare: 'src/webview/compare/main.ts' }, outdir: 'dist/webview' },
  // The delivery inspector's page script (a webview too).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { inspector: 'src/webview/inspector/main.ts' }, outdir: 'dist/webview' },
  // The usage view's page script (a webview too).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { usage: 'src/webview/usage/main.ts' }, outdir: 'dist/webview' },
  // Tests that run inside a real VS Code extension host (loaded by test/host/index.ts).
  // `proxy` is an ES module that reads its own package.json: loaded from node_modules instead.
  { ...common, entryPoints: ['test/host/*.ts'], outdir: 'dist/test/host', external: ['vscode', 'mocha', 'proxy'], minify: false },
];

// Codicons for the webview, served from the extension's own folder.
mkdirSync('dist/codicons', { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`built ${builds.length} bundles into dist/${production ? ' (minified)' : ''} in ${Date.now() - started} ms`);
}
