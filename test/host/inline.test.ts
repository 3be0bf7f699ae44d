/**
 * Inline suggestions in a real editor, from the emulator's deployment: picking the deployment
 * turns them on, ghost text appears where the code asks for it, Tab accepts it, typing its next
 * characters sends nothing new, a .env file sends nothing at all, a keystroke closes the request
 * in flight, the hour's budget pauses them with the status bar saying so, and the usage view
 * lists what they spent under their own source.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { InlineState } from '../../src/vscode/inline/status';
import type { UsageHostMessage } from '../../src/webview/usage/protocol';
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
    for (const key of ['inline.connection', 'inline.deployment', 'inline.maxRequestsPerHour']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
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

  /** Suggestions are on from the first test; every editor closed and no request left in flight. */
  async function quiet() {
    const controller = (await workbench()).loadInline().currentInline();
    assert.ok(controller, 'suggestions are on from the first test');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await eventually(() => !controller.thinking, 60_000, 'no inline request in flight');
    return controller;
  }

  it('inline: a keystroke cancels the request in flight: the emulator sees it closed before its first word', async () => {
    const controller = await quiet();
    // The emulator holds its first token back for 20 s: a request it counts as closed was cancelled
    // (one left alone would be answered whole, and counted as completed).
    svc.emu.config.firstTokenDelayMs = 20_000;
    try {
      const sent = svc.emu.stats.requests;
      const states: string[] = [];
      const watch = controller.onDidChange((st) => states.push(`${Date.now() % 100_000} ${st.kind}`));
      await openAt('slow.ts', 'export function slow(n: number): number {\n  |\n}\n');
      // The trigger command resolves once its suggestion is in, so it is not awaited; asked again
      // (which cancels the call before) only when nothing reached the emulator in 5 s.
      await eventually(async () => {
        void vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
        for (let i = 0; i < 50 && svc.emu.stats.requests === sent; i++) await new Promise((r) => setTimeout(r, 100));
        return svc.emu.stats.requests > sent || undefined;
      }, 30_000, 'the request to reach the emulator');
      const closed = svc.emu.stats.streamsAborted;
      const typedAt = Date.now();
      await vscode.commands.executeCommand('type', { text: 'r' });
      await eventually(() => svc.emu.stats.streamsAborted > closed || undefined, 15_000, 'the emulator to see the request closed after the keystroke').catch((e) => {
        throw new Error(`${e.message}; typed at ${typedAt % 100_000}; states ${states.join(', ')}; stats ${JSON.stringify(svc.emu.stats)}`);
      });
      watch.dispose();
    } finally {
      svc.emu.config.firstTokenDelayMs = 0;
    }
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('inline: past the hour\'s request budget nothing is sent, and the status bar says suggestions are paused and why', async () => {
    const controller = await quiet();
    // Every test before sent at least one request this hour: a budget of one is spent.
    await config().update('inline.maxRequestsPerHour', 1, vscode.ConfigurationTarget.Global);
    const sent = svc.emu.stats.requests;
    const paused = new Promise<InlineState>((resolve) => {
      const sub = controller.onDidChange((s) => s.kind === 'paused' && (sub.dispose(), resolve(s)));
    });
    await openAt('budget.ts', 'export function inc(a: number): number {\n  |\n}\n');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    const state = await paused;
    assert.equal(state.kind === 'paused' && state.pause.reason, 'requests');
    assert.match(controller.status.text, /^\$\(debug-pause\) gpt-4o$/);
    assert.match(controller.status.tooltip, /Paused until \d\d:\d\d: the hour's request budget is spent \(aoaiWorkbench\.inline\.maxRequestsPerHour\)\./);
    assert.equal(svc.emu.stats.requests, sent, 'nothing was sent past the budget');
    await config().update('inline.maxRequestsPerHour', undefined, vscode.ConfigurationTarget.Global);
  });

  it('inline: the usage view lists the suggestions\' requests under their own source, with their tokens', async () => {
    await quiet();
    const api = await workbench();
    const sent: UsageHostMessage[] = [];
    const watching = api.services.usageView.onDidPost((m) => sent.push(m));
    try {
      await execAsOurs('showUsage');
      const before = sent.length;
      await api.services.usageView.receive({ type: 'filter', filter: { connection: svc.conn.id, source: 'inline' } });
      const row = await eventually(() => {
        const m = sent.slice(before).reverse().find((x): x is Extract<UsageHostMessage, { type: 'summary' }> => x.type === 'summary');
        return m?.summary.deployments.find((d) => d.deployment === 'gpt-4o' && d.windows.today.requests >= 2);
      }, 30_000, 'the usage view\'s inline row');
      assert.ok(row.windows.today.promptTokens > 0 && row.windows.today.completionTokens > 0, JSON.stringify(row.windows.today));
      await api.services.usageView.receive({ type: 'filter', filter: { connection: '', source: '' } });
    } finally {
      watching.dispose();
    }
  });
});
