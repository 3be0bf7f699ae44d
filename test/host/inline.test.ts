/**
 * Inline suggestions in a real editor, from the emulator's deployment: picking the deployment
 * turns them on, ghost text appears where the code asks for it, Tab accepts it, typing its next
 * characters sends nothing new, and a .env file sends nothing at all.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { InlineState } from '../../src/vscode/inline/status';
import { closeEmulatedService, emulatedService, eventually, execAsOurs, workbench, type EmulatedService } from './support';

const config = () => vscode.workspace.getConfiguration('aoaiWorkbench');

/** Opens a file of the workspace with `|` at the cursor, written to disk first. */
async function openAt(rel: string, content: string): Promise<vscode.TextEditor> {
  const file = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'inline-test', rel);
  mkdirSync(join(file, '..'), { recursive: true });
  const at = content.indexOf('|');
  writeFileSync(file, content.replace('|', ''));
  const doc = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(doc);
  const pos = doc.positionAt(at);
  editor.selection = new vscode.Selection(pos, pos);
  return editor;
}

/** Asks for a suggestion and presses Tab until the document has `text` (the ghost text was shown and taken). */
async function acceptUntil(editor: vscode.TextEditor, text: string, what: string): Promise<void> {
  await eventually(async () => {
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
    return editor.document.getText().includes(text);
  }, 30_000, what);
}

describe('inline suggestions', function () {
  this.timeout(120_000);
  let svc: EmulatedService;

  before(async () => {
    svc = await emulatedService('Inline emulator');
  });
  after(async () => {
    for (const key of ['inline.connection', 'inline.deployment']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await closeEmulatedService(svc);
  });

  it('inline: the chosen deployment\'s ghost text appears as you type, Tab accepts it, and typing its next characters sends nothing new', async () => {
    assert.equal(await execAsOurs('inline.useDeployment', { connectionId: svc.conn.id, deployment: 'gpt-4o' }), true);
    assert.equal(config().get('inline.deployment'), 'gpt-4o');
    const editor = await openAt('math.ts', 'export function add(a: number, b: number): number {\n  |\n}\n');
    const sent = svc.emu.stats.requests;
    await acceptUntil(editor, '  return a + b;\n}', 'the ghost text "return a + b;" to be shown and accepted with Tab');
    assert.equal(editor.document.lineAt(1).text, '  return a + b;');
    const afterFirst = svc.emu.stats.requests;
    assert.ok(afterFirst > sent, 'the suggestion came from the emulator');

    // Typing through: the second function's body, asked once, then its characters typed one by one.
    const second = await openAt('twice.ts', 'export function twice(x: number): number {\n  |\n}\n');
    await eventually(async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      return svc.emu.stats.requests > afterFirst || undefined;
    }, 30_000, 'the request for the second body');
    const controller = (await workbench()).loadInline().currentInline()!;
    await eventually(() => !controller.thinking, 30_000, 'the answer to the second body');
    const asked = svc.emu.stats.requests;
    for (const ch of 'retu') await vscode.commands.executeCommand('type', { text: ch });
    await acceptUntil(second, '  return x;\n}', 'the rest of the suggestion after typing "retu"');
    assert.equal(second.document.lineAt(1).text, '  return x;');
    assert.equal(svc.emu.stats.requests, asked, 'typing through the suggestion sent nothing new');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('inline: a .env file sends nothing (the emulator sees no request), and the status bar says why', async () => {
    const { loadInline } = await workbench();
    const controller = loadInline().currentInline();
    assert.ok(controller, 'suggestions are on from the previous test');
    // The previous test's editors closed and their last requests answered: nothing else can arrive.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await eventually(() => !controller.thinking, 30_000, 'no inline request in flight');
    const sent = svc.emu.stats.requests;
    const withheld = new Promise<InlineState>((resolve) => {
      const sub = controller.onDidChange((s) => s.kind === 'withheld' && (sub.dispose(), resolve(s)));
    });
    await openAt('.env', 'API_KEY=|\n');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    assert.deepEqual(await withheld, { kind: 'withheld', why: 'excluded' });
    assert.match(controller.status.tooltip, /Nothing is sent for this file/);
    assert.equal(svc.emu.stats.requests, sent, 'no request for .env');
  });
});
