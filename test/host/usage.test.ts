/**
 * Usage in a real VS Code: a chat in the panel and one through VS Code's chat (vscode.lm) are
 * both recorded in the usage log with the tokens each reply had; the usage view's page is sent
 * both (and each alone through its source filter); the status bar shows the day's total; the
 * user's price setting applies, and a malformed entry of it is left out.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { ChatTurn } from '../../src/chat/model';
import type { Emulator } from '../../src/emulator/server';
import type { UsageSummary } from '../../src/usage/aggregate';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { compactCount } from '../../src/vscode/usage/todayTotals';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { UsageHostMessage } from '../../src/webview/usage/protocol';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('usage: recorded from both chats, shown in the usage view and the status bar', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Usage emulator', {
      streamTokenDelayMs: 1,
      deployments: [{ name: 'mini', model: 'gpt-4o-mini', version: '2024-07-18', sku: 'GlobalStandard', capacity: 10, requestsPerMinute: 1000, tokensPerMinute: 1e7 }],
    }));
    await (await workbench()).services.usage.clear();
  });
  after(async () => {
    await vscode.workspace.getConfiguration('aoaiWorkbench').update('usage.prices', undefined, vscode.ConfigurationTarget.Global);
    await closeEmulatedService({ emu });
  });

  it('a panel reply and a VS Code chat reply: the view is sent both, each under its source, with its tokens; the status bar shows the day\'s tokens', async () => {
    const api = await workbench();
    // The chat panel.
    const opened = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'mini' });
    const panel = api.services.chat.panel(opened!.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'send', text: 'hello usage panel' });
    await panel.idle();
    const turn = posted.find((m): m is { type: 'turnFinished'; turn: ChatTurn } => m.type === 'turnFinished')!.turn;
    assert.ok(turn.usage && turn.usage.prompt_tokens > 0, JSON.stringify(turn.usage));
    // VS Code's chat, through the language model API.
    const model = await eventually(async () => (await vscode.lm.selectChatModels({ vendor: 'azure-openai' })).find((m) => m.id === `${conn.id}/mini`));
    const res = await model.sendRequest([vscode.LanguageModelChatMessage.User('hello usage panel')], {});
    let lmText = '';
    for await (const piece of res.text) lmText += piece;
    assert.match(lmText, /You said: hello usage panel/);

    // The usage view: its page (the real webview) says ready and is sent the summary.
    const sent: UsageHostMessage[] = [];
    const watching = api.services.usageView.onDidPost((m) => sent.push(m));
    try {
      await exec('showUsage');
      assert.ok(api.services.usageView.isOpen);
      assert.match(api.services.usageView.html!, /script-src 'nonce-[^']+'/);
      assert.doesNotMatch(api.services.usageView.html!, /unsafe-inline|unsafe-eval/);
      const latest = () => [...sent].reverse().find((m): m is Extract<UsageHostMessage, { type: 'summary' }> => m.type === 'summary');
      const both = await eventually(() => {
        const d = latest()?.summary.deployments.find((x) => x.connectionId === conn.id && x.deployment === 'mini');
        return d && d.windows.today.requests === 2 ? d : undefined;
      }, 15_000);
      const today = both.windows.today;
      assert.ok(today.cost !== undefined && today.cost > 0, 'gpt-4o-mini has a shipped price');
      assert.equal(latest()!.summary.connections.find((c) => c.id === conn.id)?.label, 'Usage emulator');

      // Each source alone, through the page's filter: the panel's request with the tokens its reply
      // showed; VS Code's chat's with the same reply (the emulator echoes) and its own prompt.
      const bySource = async (source: 'panel' | 'vscode-chat') => {
        const before = sent.length;
        await api.services.usageView.receive({ type: 'filter', filter: { connection: conn.id, source } });
        const m = await eventually(() => sent.slice(before).find((x) => x.type === 'summary'));
        return (m as Extract<UsageHostMessage, { type: 'summary' }>).summary.deployments[0].windows.today;
      };
      const fromPanel = await bySource('panel');
      assert.deepEqual([fromPanel.requests, fromPanel.promptTokens, fromPanel.completionTokens], [1, turn.usage.prompt_tokens, turn.usage.completion_tokens]);
      const fromVsCode = await bySource('vscode-chat');
      assert.deepEqual([fromVsCode.requests, fromVsCode.completionTokens], [1, turn.usage.completion_tokens]);
      assert.ok(fromVsCode.promptTokens > 0);
      assert.deepEqual([today.promptTokens, today.completionTokens], [fromPanel.promptTokens + fromVsCode.promptTokens, 2 * turn.usage.completion_tokens]);
      for (const w of [fromPanel, fromVsCode]) assert.ok(w.firstTokenMs && w.totalMs && w.firstTokenMs.p50 <= w.totalMs.p50, JSON.stringify(w));
      await api.services.usageView.receive({ type: 'filter', filter: { connection: '', source: '' } });

      // Export as CSV writes the table: both sources' deployment, its tokens (the save dialog is the UI journey's).
      const csv = vscode.Uri.file(join(tmpdir(), `usage-export-${process.pid}.csv`));
      await api.services.usageView.exportCsv(csv);
      const text = readFileSync(csv.fsPath, 'utf8');
      assert.ok(text.startsWith('window,connection,deployment'), text.slice(0, 200));
      assert.match(text, /\ntoday,Usage emulator,mini,gpt-4o-mini[^,]*,,2,/, text.slice(0, 400));
      rmSync(csv.fsPath, { force: true });

      // The status bar: the day's tokens across both chats.
      await api.services.usageStatus.refresh();
      const sum = today.promptTokens + today.completionTokens;
      assert.equal(api.services.usageStatus.today?.requests, 2);
      assert.match(api.services.usageStatus.text, new RegExp(`^\\$\\(pulse\\) ${compactCount(sum).replace('.', '\\.')} tokens · [~<]\\$`));
      assert.match(api.services.usageStatus.tooltip, /Estimated cost: .*\(estimate\)/);
    } finally {
      watching.dispose();
    }
  });

  it('the user\'s prices apply over the shipped ones; a malformed entry is left out, the others apply', async () => {
    const api = await workbench();
    const summary = (): Promise<UsageSummary> => api.services.usage.summarize({ filter: { connections: [conn.id] } });
    const shipped = (await summary()).deployments[0].windows.today;
    await vscode.workspace.getConfiguration('aoaiWorkbench').update(
      'usage.prices',
      { 'gpt-4o-mini': { input: 1000, output: 2000 }, 'gpt-4o': { input: 'cheap', output: 1 } },
      vscode.ConfigurationTarget.Global,
    );
    const priced = await eventually(async () => {
      const w = (await summary()).deployments[0].windows.today;
      return w.cost !== shipped.cost ? w : undefined;
    });
    assert.ok(Math.abs(priced.cost! - (priced.promptTokens * 1000 + priced.completionTokens * 2000) / 1e6) < 1e-9, JSON.stringify(priced));
    const table = api.services.usage.prices();
    assert.equal(table.get('gpt-4o')?.input, 2.5, 'the malformed gpt-4o entry is ignored: the shipped price stays');
  });

  it('the same long prompt twice in the panel: the second reply\'s usage and the usage view show the cached tokens', async () => {
    const api = await workbench();
    const opened = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'mini' });
    const panel = api.services.chat.panel(opened!.conversationId)!;
    const finished: ChatTurn[] = [];
    panel.onDidPost((m) => m.type === 'turnFinished' && finished.push(m.turn));
    // About 1,500 tokens, over the 1,024 a cached prefix needs; the second request starts with the first one's prompt.
    const long = Array.from({ length: 1500 }, (_, i) => `item${i}`).join(' ');
    await panel.receive({ type: 'send', text: long });
    await panel.idle();
    await panel.receive({ type: 'send', text: long });
    await panel.idle();
    const cachedOf = (t: ChatTurn | undefined) => t?.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    assert.equal(finished.length, 2, 'two replies');
    assert.equal(cachedOf(finished[0]), 0);
    assert.ok(cachedOf(finished[1]) >= 1024, JSON.stringify(finished[1].usage));

    const sent: UsageHostMessage[] = [];
    const watching = api.services.usageView.onDidPost((m) => sent.push(m));
    try {
      await exec('showUsage');
      await api.services.usageView.receive({ type: 'filter', filter: { connection: conn.id, source: '' } });
      const today = await eventually(() => {
        const summary = [...sent].reverse().find((m): m is Extract<UsageHostMessage, { type: 'summary' }> => m.type === 'summary')?.summary;
        const w = summary?.deployments.find((x) => x.connectionId === conn.id && x.deployment === 'mini')?.windows.today;
        return w && w.cachedTokens >= 1024 ? w : undefined;
      }, 15_000);
      assert.equal(today.cachedTokens, cachedOf(finished[1]));
    } finally {
      watching.dispose();
    }
  });
});
