/**
 * The default shortcuts (issue 28): what each key runs, as package.json binds it, does what the
 * walkthrough says; and no default keybinding of VS Code (this host's own list) uses the keys.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { Commands } from '../../src/vscode/contributions';
import { closeEmulatedService, EXTENSION_ID, emulatedService, eventually, workbench } from './support';

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
  args?: unknown;
}

/** The installed package's keybinding for `command`, as VS Code reads it. */
function keybindingOf(command: string): Keybinding {
  const all = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.keybindings as Keybinding[];
  const kb = all.find((k) => k.command === command);
  assert.ok(kb, `no keybinding for ${command}`);
  return kb;
}

/** Runs what pressing the key runs: its command, with its arguments. */
function press<T>(kb: Keybinding): Thenable<T | undefined> {
  return kb.args === undefined ? vscode.commands.executeCommand<T>(kb.command) : vscode.commands.executeCommand<T>(kb.command, kb.args);
}

/** "ctrl+shift+alt+a" and "shift+alt+ctrl+a" are the same key. */
const sameKey = (a: string) => a.split(' ').map((part) => part.split('+').sort().join('+')).join(' ');

describe('default shortcuts', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Shortcuts emulator'));
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  it('Ctrl+Shift+Alt+A opens a chat with the deployment last sent to, or brings the open chat to the front', async () => {
    const kb = keybindingOf(Commands.openLastChat);
    assert.equal(kb.key, 'ctrl+shift+alt+a');
    const api = await workbench();
    const first = await vscode.commands.executeCommand<{ conversationId: string }>(Commands.openChat, { connectionId: conn.id, deployment: 'gpt-4.1-nano' });
    const panel = api.services.chat.panel(first!.conversationId)!;
    await panel.receive({ type: 'send', text: 'remember me' });
    await panel.idle();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await eventually(() => api.services.chat.active() === undefined);

    // No chat open: a new one, with the deployment the last message went to.
    const opened = await press<{ conversationId: string }>(kb);
    assert.ok(opened && opened.conversationId !== first!.conversationId, 'a new conversation');
    const again = api.services.chat.panel(opened.conversationId)!;
    assert.equal(again.conversation.deployment, 'gpt-4.1-nano');
    assert.equal(again.conversation.connectionId, conn.id);

    // With it open behind an editor, the same key brings it back.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'in front' }));
    assert.equal(again.panel.active, false);
    const front = await press<{ conversationId: string }>(kb);
    assert.equal(front?.conversationId, opened.conversationId);
    await eventually(() => again.panel.active);
  });

  it("Ctrl+Shift+Alt+S, in an editor with a selection, attaches it to the chat used last", async () => {
    const kb = keybindingOf(Commands.askAboutSelection);
    assert.equal(kb.key, 'ctrl+shift+alt+s');
    assert.match(kb.when ?? '', /editorTextFocus/);
    const api = await workbench();
    const chat = await vscode.commands.executeCommand<{ conversationId: string }>(Commands.openChat, { connectionId: conn.id, deployment: 'gpt-4o-mini' });
    const doc = await vscode.workspace.openTextDocument({ language: 'python', content: 'x = 1\nprint(x * 42)\n' });
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
    editor.selection = new vscode.Selection(1, 0, 1, 13);
    const res = await press<{ conversationId: string; attached: string }>(kb);
    assert.equal(res?.conversationId, chat!.conversationId);
    assert.match(res!.attached, /\(line 2\)$/);
    await eventually(() => api.services.chat.panel(chat!.conversationId)?.panel.active);
  });

  it("no default keybinding of VS Code uses either key (this host's Default Keyboard Shortcuts)", async () => {
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await eventually(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === 'vscode://defaultsettings/keybindings.json'));
    const entries = [...doc.getText().matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map((m) => ({ key: m[1], command: m[2] }));
    assert.ok(entries.length > 500, `the default keybindings were read (${entries.length})`);
    for (const command of [Commands.openLastChat, Commands.askAboutSelection]) {
      const ours = sameKey(keybindingOf(command).key);
      const users = entries.filter((e) => sameKey(e.key) === ours || sameKey(e.key).split(' ')[0] === ours);
      assert.deepEqual([...new Set(users.map((u) => u.command))], [command], `${ours}: ${JSON.stringify(users)}`);
    }
  });
});
