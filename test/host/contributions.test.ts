import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../src/vscode/contributions';
import { workbench } from './support';

describe('contributions', () => {
  it('registers every command of the command list', async () => {
    await workbench();
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of Object.values(Commands)) assert.ok(registered.has(id), id);
  });
});
