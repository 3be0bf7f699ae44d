import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { EXTENSION_ID, publicApi, workbench } from './support';

const ext = () => vscode.extensions.getExtension(EXTENSION_ID)!;

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

  it('keeps activation cheap: @azure/identity and the emulator are not loaded until used', () => {
    const loaded = Object.keys(require.cache).filter((p) => p.includes(ext().extensionPath));
    assert.ok(loaded.some((p) => p.endsWith('extension.js')), 'the extension bundle is in the module cache');
    assert.deepEqual(loaded.filter((p) => /dist[\\/](identity|emulator-lib)\.js$/.test(p)), []);
    // Not loaded, and not bundled into the extension either: the code lives only in its own bundle.
    const bundle = (name: string) => readFileSync(join(ext().extensionPath, 'dist', name), 'utf8');
    const main = bundle('extension.js');
    // Markers that survive minification: the package is built with --production.
    for (const [marker, own] of [['ManagedIdentityCredential', 'identity.js'], ['o200k_base', 'emulator-lib.js']]) {
      assert.ok(bundle(own).includes(marker), `${marker} marks ${own}`);
      assert.ok(!main.includes(marker), `extension.js must not contain ${own}'s code (${marker})`);
    }
  });

  it('gives other extensions a narrow API: nothing in it hands out a key or a secret', async () => {
    const api = await publicApi();
    assert.deepEqual(Object.keys(api).sort(), ['apiVersion', 'connections', 'onDidChangeConnections']);
    const key = 'key-for-the-api-test-0001';
    const exec = <T>(cmd: string, arg: unknown) => vscode.commands.executeCommand<T>(`aoaiWorkbench.${cmd}`, arg);
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
