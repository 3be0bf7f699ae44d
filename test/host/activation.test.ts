import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, workbench } from './support';

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
});
