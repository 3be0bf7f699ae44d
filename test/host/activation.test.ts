import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, workbench } from './support';

describe('extension in a real VS Code host', () => {
  it('activates and contributes its commands and view', async () => {
    await workbench();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.equal(ext.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['addConnection', 'startLocalEmulator', 'createWebhookEndpoint', 'openChat']) assert.ok(commands.includes(`aoai-workbench.${c}`), c);
  });
});
