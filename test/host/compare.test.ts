/**
 * Compare Deployments… in the real VS Code (the packaged extension): three emulator deployments,
 * one of which refuses (its one request a window is used up): two replies and that column's 429,
 * then the export and Continue in Chat from a column that answered.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ColumnResult } from '../../src/chat/compare/column';
import type { Emulator } from '../../src/emulator/server';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { ComparePanel } from '../../src/vscode/compare/comparePanel';
import type { CompareHostMessage } from '../../src/webview/compare/protocol';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

describe('compare deployments', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Compare emulator', {
      streamTokenDelayMs: 1,
      rateLimitWindowSeconds: 60,
      deployments: [
        { name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 50, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        { name: 'gpt-4o-mini', model: 'gpt-4o-mini', version: '2024-07-18', sku: 'Standard', capacity: 50, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        { name: 'one-per-minute', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1, tokensPerMinute: 1e7 },
      ],
    }));
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  async function open(names: string[]): Promise<{ panel: ComparePanel; posted: CompareHostMessage[] }> {
    const deployments = names.map((deployment) => ({ connectionId: conn.id, deployment }));
    const res = await vscode.commands.executeCommand<{ panel: ComparePanel }>('aoaiWorkbench.compareDeployments', { deployments });
    assert.ok(res?.panel, 'the compare panel opened');
    const posted: CompareHostMessage[] = [];
    res.panel.onDidPost((m) => posted.push(m));
    return { panel: res.panel, posted };
  }

  const columns = (posted: CompareHostMessage[]) => posted.filter((m): m is Extract<CompareHostMessage, { type: 'column' }> => m.type === 'column').map((m) => m.column);
  const byId = (list: ColumnResult[], deployment: string) => list.find((c) => c.id === `${conn.id}/${deployment}`)!;

  it('three deployments, one refusing: two replies and that column says why, with its countdown', async () => {
    const names = ['gpt-4o', 'gpt-4o-mini', 'one-per-minute'];
    // The first compare uses up the one request a minute the third deployment takes.
    const first = await open(names);
    await first.panel.receive({ type: 'send', text: 'warm up', settings: { systemPrompt: 'Be brief.' }, runs: 1 });
    await first.panel.idle();
    assert.deepEqual(columns(first.posted).map((c) => c.outcome), ['ok', 'ok', 'ok']);
    first.panel.dispose();

    const { panel, posted } = await open(names);
    await panel.receive({ type: 'send', text: 'compare me', settings: { systemPrompt: 'Be brief.', temperature: 0.2 }, runs: 1 });
    await panel.idle();
    const ended = columns(posted);
    assert.equal(ended.length, 3);
    for (const name of ['gpt-4o', 'gpt-4o-mini']) {
      const c = byId(ended, name);
      assert.equal(c.outcome, 'ok', name);
      assert.match(c.content, /You said: compare me/);
      assert.ok(c.tokens!.completion > 0 && c.costUsd! > 0 && c.firstTokenMs! >= 0, `${name}'s figures`);
    }
    const refused = byId(ended, 'one-per-minute');
    assert.equal(refused.outcome, 'failed');
    assert.equal(refused.failure?.kind, 'rate_limited');
    assert.ok(refused.failure!.retryAt! > Date.now(), 'a countdown to show');
    assert.ok(posted.some((m) => m.type === 'delta' && m.id.endsWith('/gpt-4o')), 'replies streamed');
    assert.ok(posted.some((m) => m.type === 'roundEnded'), 'the page was told the round ended');

    const doc = await panel.export();
    const text = doc.getText();
    assert.match(text, /\| gpt-4o-mini \| gpt-4o-mini-2024-07-18 \|/);
    assert.match(text, /rate_limited \(429\)/);
    assert.match(text, /\(estimate\)/);

    // Every compare request is in the usage log as a compare one, the refused one as a 429.
    const api = await workbench();
    await api.services.usage.flush();
    const compared = await api.services.usage.summarize({ filter: { sources: ['compare'] } });
    const today = (name: string) => compared.deployments.find((d) => d.connectionId === conn.id && d.deployment === name)?.windows.today;
    assert.ok(today('gpt-4o-mini')!.requests >= 2 && today('gpt-4o-mini')!.completionTokens > 0, JSON.stringify(today('gpt-4o-mini')));
    assert.equal(today('one-per-minute')!.rateLimited, 1);

    await panel.receive({ type: 'continueInChat', id: `${conn.id}/gpt-4o-mini` });
    const chat = await eventually(() => {
      const active = api.services.chat.active();
      return active?.conversation.deployment === 'gpt-4o-mini' ? active : undefined;
    });
    assert.equal(chat.conversation.deployment, 'gpt-4o-mini');
    assert.deepEqual(chat.conversation.turns.map((t) => [t.role, t.content.slice(0, 23)]), [['user', 'compare me'], ['assistant', 'You said: compare me\n\nT']]);
    assert.equal(chat.conversation.params.systemPrompt, 'Be brief.');
    panel.dispose();
  });

  it('refuses a compare of one deployment with a clear message, and drops messages off the protocol', async () => {
    const one = await vscode.commands.executeCommand('aoaiWorkbench.compareDeployments', { deployments: [{ connectionId: conn.id, deployment: 'gpt-4o' }] });
    assert.equal(one, undefined);
    const { panel, posted } = await open(['gpt-4o', 'gpt-4o-mini']);
    await panel.receive({ type: 'send', text: 'x', settings: { systemPrompt: '' }, runs: 99 });
    await panel.receive({ type: 'html', html: '<script>' });
    assert.equal(posted.filter((m) => m.type === 'busy').length, 0, 'nothing was started');
    panel.dispose();
  });
});
