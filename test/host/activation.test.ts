import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, workbench } from './support';

const ext = () => vscode.extensions.getExtension(EXTENSION_ID)!;

describe('extension in a real VS Code host', () => {
  it('activates and contributes its commands and view', async () => {
    await workbench();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.equal(ext.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['addConnection', 'addConnectionFromAzure', 'startLocalEmulator', 'createWebhookEndpoint', 'openChat']) assert.ok(commands.includes(`aoai-workbench.${c}`), c);
  });

  it('keeps activation cheap: @azure/identity and the emulator are not loaded until used', () => {
    const loaded = Object.keys(require.cache).filter((p) => p.includes(ext().extensionPath));
    assert.ok(loaded.some((p) => p.endsWith('extension.js')), 'the extension bundle is in the module cache');
    assert.deepEqual(loaded.filter((p) => /dist[\\/](identity|emulator-lib)\.js$/.test(p)), []);
  });
});
