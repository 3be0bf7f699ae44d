/**
 * The compare page's protocol, checked on both sides, and what a compare sends and hands to the
 * chat: the panel's system prompt and attachments as neutral messages, a column's exchange as a
 * conversation the chat panel opens.
 */
import assert from 'node:assert/strict';
import type { ColumnResult } from '../../src/chat/compare/column';
import { comparePrompt, conversationOf } from '../../src/chat/compare/exchange';
import { requestMessages } from '../../src/chat/conversation';
import { isColumn, parseCompareHostMessage, parseCompareViewMessage, parseSettings } from '../../src/webview/compare/protocol';

const column: ColumnResult = {
  id: 'c/a', outcome: 'ok', content: 'Reply', finishReason: 'stop', model: 'gpt-4o', firstTokenMs: 5, totalMs: 20.4, tokensPerSecond: 3,
  tokens: { prompt: 10, cached: 2, completion: 4, reasoning: 1 }, costUsd: 0.1, notes: [], failure: undefined,
};

describe('compare protocol', () => {
  it('takes what the page may send, and nothing else', () => {
    const settings = { systemPrompt: 'Be brief.', temperature: 0.5, maxTokens: 99.7 };
    assert.deepEqual(
      parseCompareViewMessage({ type: 'send', text: 'hi', settings, runs: 3 }),
      { type: 'send', text: 'hi', settings: { systemPrompt: 'Be brief.', temperature: 0.5, maxTokens: 99 }, runs: 3 },
    );
    for (const bad of [
      { type: 'send', text: '  ', settings, runs: 1 },
      { type: 'send', text: 'hi', settings, runs: 0 },
      { type: 'send', text: 'hi', settings, runs: 21 },
      { type: 'send', text: 'hi', settings, runs: 1.5 },
      { type: 'send', text: 'hi', settings: { systemPrompt: 's', temperature: 3 }, runs: 1 },
      { type: 'send', text: 'hi', settings: { temperature: 1 }, runs: 1 },
      { type: 'continueInChat', id: '' },
      { type: 'showTrace', id: 7 },
      { type: 'attach', kind: 'folder' },
      { type: 'copyCode' },
      { type: 'nope' },
      'ready',
      null,
    ]) assert.equal(parseCompareViewMessage(bad), undefined, JSON.stringify(bad));
    assert.deepEqual(parseCompareViewMessage({ type: 'stop', extra: 1 }), { type: 'stop' });
    assert.deepEqual(parseCompareViewMessage({ type: 'continueInChat', id: 'c/a' }), { type: 'continueInChat', id: 'c/a' });
    assert.deepEqual(parseCompareViewMessage({ type: 'showTrace', id: 'c/a' }), { type: 'showTrace', id: 'c/a' });
    assert.deepEqual(parseCompareViewMessage({ type: 'attach', kind: 'image' }), { type: 'attach', kind: 'image' });
    assert.deepEqual(parseCompareViewMessage({ type: 'insertCode', code: 'x' }), { type: 'insertCode', code: 'x' });
    assert.deepEqual(parseCompareViewMessage({ type: 'openLink', href: 'https://a' }), { type: 'openLink', href: 'https://a' });
    assert.deepEqual(parseSettings({ systemPrompt: '' }), { systemPrompt: '' });
    assert.equal(parseSettings({ systemPrompt: '', maxTokens: 0 }), undefined);
  });

  it('the page takes only well-formed columns, summaries and chips', () => {
    assert.ok(isColumn(column));
    assert.ok(isColumn({ ...column, failure: { kind: 'rate_limited', message: 'Wait.', status: 429, retryAt: 5 } }));
    assert.ok(isColumn({ ...column, traceId: 'a'.repeat(32) }));
    assert.equal(isColumn({ ...column, traceId: 5 }), false);
    assert.equal(isColumn({ ...column, traceId: 'a'.repeat(65) }), false);
    for (const bad of [{ outcome: 'great' }, { totalMs: 'slow' }, { tokens: { prompt: 1 } }, { notes: [1] }, { failure: { kind: 'oops', message: '' } }, { finishReason: 3 }, { content: 7 }]) {
      assert.equal(isColumn({ ...column, ...bad }), false, JSON.stringify(bad));
    }
    assert.deepEqual(parseCompareHostMessage({ type: 'column', column }), { type: 'column', column });
    assert.equal(parseCompareHostMessage({ type: 'column', column: { ...column, id: 5 } }), undefined);
    const init = { type: 'init', columns: [{ id: 'a', label: 'A', detail: 'd' }], settings: { systemPrompt: 's' }, busy: true };
    assert.deepEqual(parseCompareHostMessage(init), init);
    assert.equal(parseCompareHostMessage({ ...init, columns: [{ id: 'a' }] }), undefined);
    assert.deepEqual(parseCompareHostMessage({ type: 'roundEnded' }), { type: 'roundEnded' });
    assert.deepEqual(parseCompareHostMessage({ type: 'roundEnded', leaveSpreadMs: 0.4 }), { type: 'roundEnded' }, 'no figure is carried to the page');
    const summary = { id: 'a', answered: 1, rounds: 2, totalMs: { median: 1, min: 1, max: 1 } };
    assert.deepEqual(parseCompareHostMessage({ type: 'summary', summaries: [summary] }), { type: 'summary', summaries: [summary] });
    assert.equal(parseCompareHostMessage({ type: 'summary', summaries: [{ ...summary, totalMs: { median: 1 } }] }), undefined);
    assert.deepEqual(
      parseCompareHostMessage({ type: 'attachments', items: [{ id: 'x', kind: 'file', name: 'a.ts' }], imageInput: 1 }),
      { type: 'attachments', items: [{ id: 'x', kind: 'file', name: 'a.ts' }], imageInput: false },
    );
    assert.equal(parseCompareHostMessage({ type: 'attachments', items: [{ id: 'x', kind: 'disk', name: 'a' }] }), undefined);
    assert.deepEqual(parseCompareHostMessage({ type: 'delta', id: 'a', text: 't' }), { type: 'delta', id: 'a', text: 't' });
    assert.deepEqual(parseCompareHostMessage({ type: 'roundStarted', round: 1, of: 3 }), { type: 'roundStarted', round: 1, of: 3 });
    assert.deepEqual(parseCompareHostMessage({ type: 'busy', busy: 'yes' }), { type: 'busy', busy: false });
    assert.equal(parseCompareHostMessage({ type: 'html', html: '<b>' }), undefined);
  });
});

describe('compare: what is sent, and Continue in Chat', () => {
  const file = { id: 'f', kind: 'file' as const, name: 'a.ts', text: 'const a = 1;', language: 'typescript' };

  it('the system prompt, the attachments and the text, with the parameters set', () => {
    const p = comparePrompt({ text: 'Explain', systemPrompt: 'Be brief.', temperature: 0.3, maxTokens: 50, attachments: [file] });
    assert.deepEqual(p.sampling, { temperature: 0.3, maxTokens: 50 });
    assert.deepEqual(p.messages.map((m) => m.role), ['system', 'user']);
    const user = JSON.stringify(p.messages[1]);
    assert.ok(user.includes('const a = 1;') && user.includes('Explain'));
    const bare = comparePrompt({ text: 'Hi', systemPrompt: '  ' });
    assert.deepEqual(bare, { messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }], sampling: {} });
  });

  it("a column's exchange becomes a conversation with its settings, prompt and reply", () => {
    const input = { text: 'Explain this', systemPrompt: 'Be brief.', temperature: 0.3, maxTokens: 50, attachments: [file] };
    const c = conversationOf(input, { ...column, outcome: 'stopped' }, { connectionId: 'conn', connectionLabel: 'Emulator', deployment: 'gpt-4o', params: { apiVersion: '2024-10-21' } }, 1000);
    assert.deepEqual([c.connectionId, c.connectionLabel, c.deployment, c.title], ['conn', 'Emulator', 'gpt-4o', 'Explain this']);
    assert.deepEqual([c.params.systemPrompt, c.params.temperature, c.params.maxTokens, c.params.apiVersion], ['Be brief.', 0.3, 50, '2024-10-21']);
    const [user, reply] = c.turns;
    assert.deepEqual([user.role, user.content, user.attachments, user.createdAt], ['user', 'Explain this', [file], 1000]);
    assert.deepEqual([reply.role, reply.content, reply.model, reply.finishReason, reply.latencyMs, reply.stopped, reply.deployment], ['assistant', 'Reply', 'gpt-4o', 'stop', 20, true, 'gpt-4o']);
    assert.deepEqual(reply.usage, {
      prompt_tokens: 10,
      completion_tokens: 4,
      total_tokens: 14,
      prompt_tokens_details: { cached_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 1 },
    });
    assert.deepEqual(requestMessages(c).map((m) => m.role), ['system', 'user', 'assistant'], 'the next message in the chat carries the exchange');
    const plain = conversationOf({ text: 'x', systemPrompt: '' }, { ...column, tokens: undefined, model: undefined }, { connectionId: 'c', connectionLabel: 'L', deployment: 'd' });
    assert.deepEqual([plain.turns[0].attachments, plain.turns[1].usage, plain.turns[1].stopped], [undefined, undefined, undefined]);
    assert.ok(!('model' in plain.turns[1]) && !('temperature' in plain.params) && !('maxTokens' in plain.params), 'nothing set that was not given');
  });
});
