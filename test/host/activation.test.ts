import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { EXTENSION_ID, publicApi, workbench } from './support';

const ext = () => vscode.extensions.getExtension(EXTENSION_ID)!;
/** Read when this file loads, before any test activates the extension. */
const activeBeforeTheTests = ext().isActive;
const bundle = (name: string) => join(ext().extensionPath, 'dist', name);
const loadedBundles = () => Object.keys(require.cache).filter((p) => p.startsWith(join(ext().extensionPath, 'dist')));
/** The main bundle's goal (issue #13): what every activation loads and parses. */
const MAIN_BUNDLE_LIMIT = 250 * 1024;
/** The .vsix users download and install (issue #25: 3.08 MB when the emulator carried its own tokenizer and undici). */
const PACKAGE_LIMIT = 1_500_000;
/** What the installed package's dist/ holds: each bundle once, nothing for development. */
const SHIPPED = [
  'codicons/codicon.css', 'codicons/codicon.ttf', 'emulator-lib.js', 'extension.js', 'fixtures.js', 'identity.js', 'inline.js', 'l10n.js', 'markup.js', 'network.js',
  'o200k.br', 'otlp.js', 'tokenizer.js', 'trace.js', 'undici.js', 'usage-log.js', 'webhook-listener.js', 'webview/inspector.js', 'webview/pages.js', 'webview/usage.js',
];

describe('extension in a real VS Code host', () => {
  it('activates and contributes its commands and view', async () => {
    await workbench();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.equal(ext.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['addConnection', 'addConnectionFromAzure', 'startLocalEmulator', 'createWebhookEndpoint', 'openChat']) assert.ok(commands.includes(`aoaiWorkbench.${c}`), c);
  });

  it('runs from the installed .vsix, not the checkout, so a file left out of the package fails these tests', () => {
    const installed = ext().extensionPath;
    for (const devOnly of ['src', 'node_modules', 'test']) assert.ok(!existsSync(join(installed, devOnly)), `${installed} has ${devOnly}/: the tests run against the checkout`);
  });

  it('does not start with VS Code: it activates on its views, its commands, a chat panel or delivery inspector to restore, and its debug type', () => {
    assert.equal(activeBeforeTheTests, false, 'something activated the extension before any test used it');
    // Views and contributed commands activate it implicitly (VS Code 1.74+); nothing at start-up.
    assert.deepEqual(ext().packageJSON.activationEvents, [
      'onWebviewPanel:aoaiWorkbench.chat',
      'onWebviewPanel:aoaiWorkbench.deliveryInspector',
      'onDebugResolve:azure-openai-webhooks',
    ]);
  });

  it('keeps activation cheap: the network stack, @azure/identity and the emulator are not loaded until used', async () => {
    // Activating is what this looks at (when run alone, no earlier test has activated it).
    await publicApi();
    const loaded = loadedBundles();
    assert.ok(loaded.includes(bundle('extension.js')), `the extension bundle is in the module cache: ${loaded.join(', ')}`);
    assert.deepEqual(loaded.filter((p) => /dist[\\/](network|undici|identity|emulator-lib|tokenizer)\.js$/.test(p)), []);
    // Not loaded, and not bundled into the extension either: the code lives only in its own bundle.
    const text = (name: string) => readFileSync(bundle(name), 'utf8');
    const main = text('extension.js');
    // Markers that survive minification: the package is built with --production.
    const markers = [
      ['UND_ERR_CONNECT_TIMEOUT', 'undici.js', 'undici'],
      ['Azure Resource Manager denied access', 'network.js', "the service's errors (one ServiceError class, beside the clients that throw it)"],
      ['Malformed JSON: the signature is valid', 'webhook-listener.js', "the webhook listener (its own process)"],
      ['the server answered something that is not a tunnel', 'network.js', 'the localtunnel client'],
      ['ManagedIdentityCredential', 'identity.js', '@azure/identity'],
      ['o200k_base', 'tokenizer.js', 'the o200k tokenizer'],
    ];
    for (const [marker, own, what] of markers) {
      assert.ok(text(own).includes(marker), `${marker} marks ${what} in ${own}`);
      assert.ok(!main.includes(marker), `extension.js must not contain ${what} (${marker}): import it through src/vscode/bundles.ts`);
    }
    // One copy of the API object's properties at load, not one per importing file (esbuild.mjs, vscode-once).
    assert.equal(main.split('require("vscode")').length - 1, 1, 'extension.js requires vscode once');
    const size = statSync(bundle('extension.js')).size;
    assert.ok(size <= MAIN_BUNDLE_LIMIT, `extension.js is ${(size / 1024).toFixed(0)} KB, over the ${MAIN_BUNDLE_LIMIT / 1024} KB goal`);
  });

  it('the package users install is under 1.5 MB, and carries each library once', () => {
    const vsix = process.env.AOAI_TEST_VSIX;
    assert.ok(vsix, 'the runner names the package it installed');
    const size = statSync(vsix).size;
    assert.ok(size <= PACKAGE_LIMIT, `${vsix} is ${(size / 1e6).toFixed(2)} MB, over the ${PACKAGE_LIMIT / 1e6} MB goal`);
    const dist = join(ext().extensionPath, 'dist');
    const files = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => statSync(join(dist, f)).isFile()).map((f) => f.split('\\').join('/'));
    assert.deepEqual(files.sort(), SHIPPED);
    // The contributions' English texts ship (VS Code reads package.nls.json); the code's English bundle does not:
    // VS Code loads no bundle for its default language, the strings are in the code.
    assert.ok(existsSync(join(ext().extensionPath, 'package.nls.json')), 'the package lacks package.nls.json');
    assert.ok(!existsSync(join(ext().extensionPath, 'l10n', 'bundle.l10n.json')), 'the package carries l10n/bundle.l10n.json, which nothing reads');
    const scripts = files.filter((f) => f.endsWith('.js')).map((f) => ({ f, text: readFileSync(join(dist, f), 'utf8') }));
    const holding = (marker: string) => scripts.filter((s) => s.text.includes(marker)).map((s) => s.f);
    // undici's internals, @azure/identity's credentials, the tokenizer's core: in their own bundle and
    // nowhere else (the network bundle names undici's error codes, so its symbols mark undici here).
    assert.deepEqual(holding('http2session connect protocol'), ['undici.js']);
    assert.deepEqual(holding('ManagedIdentityCredential'), ['identity.js']);
    assert.deepEqual(holding('o200k_base'), ['tokenizer.js']);
    // The o200k ranks ship once, compressed: no script spells out a token of them.
    assert.deepEqual(holding(' покупателей'), []);
    assert.deepEqual(holding('o200k.br'), ['tokenizer.js']);
  });

  it('loads the network stack from its own bundle on first use, and it works from the package', async () => {
    const internals = await workbench();
    const exec = <T>(cmd: string, arg: unknown) => execAsOurs<T>(cmd, arg);
    const info = await exec<ConnectionInfo>('addConnection', { endpoint: process.env.AZURE_OPENAI_ENDPOINT, apiKey: process.env.AZURE_OPENAI_API_KEY, label: 'Lazy network' });
    try {
      const deployments = await internals.services.clients.listDeployments(info);
      assert.ok(deployments.length > 0, 'the emulator lists its deployments');
      assert.ok(loadedBundles().includes(bundle('network.js')), 'listing went through dist/network.js');
    } finally {
      await exec('removeConnection', { connectionId: info.id });
    }
  });

  it('gives other extensions a narrow API: nothing in it hands out a key or a secret', async () => {
    const api = await publicApi();
    assert.deepEqual(Object.keys(api).sort(), ['apiVersion', 'connections', 'onDidChangeConnections']);
    const key = 'key-for-the-api-test-0001';
    const exec = <T>(cmd: string, arg: unknown) => execAsOurs<T>(cmd, arg);
    const info = await exec<ConnectionInfo>('addConnection', { endpoint: 'http://127.0.0.1:9', apiKey: key, label: 'API test' });
    try {
      const listed = JSON.stringify(api.connections());
      assert.ok(listed.includes('API test'), listed);
      assert.ok(!listed.includes(key));
      // Nothing reachable from the exports is a part holding secrets.
      const reachable = new Set<unknown>();
      const walk = (v: unknown, depth: number) => {
        if (!v || (typeof v !== 'object' && typeof v !== 'function') || reachable.has(v) || depth > 4) return;
        reachable.add(v);
        for (const k of Object.getOwnPropertyNames(v)) {
          try {
            walk((v as Record<string, unknown>)[k], depth + 1);
          } catch {
            /* a getter that refuses (a function's `caller`) */
          }
        }
      };
      walk(api, 0);
      const internals = await workbench();
      for (const part of [internals.services.store, internals.services.listener, internals.services, internals.eventsTree]) assert.ok(!reachable.has(part));
    } finally {
      await exec('removeConnection', { connectionId: info.id });
    }
  });
});
