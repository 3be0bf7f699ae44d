import assert from 'node:assert/strict';
import { runChat } from '../../src/chat/chatEngine';
import { createConversation, requestMessages, titleFrom, toMarkdown, parseConversation, toJson, totals } from '../../src/chat/conversation';
import { parseHostMessage, parseViewMessage, isSafeLink } from '../../src/chat/protocol';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { startEmulator, type Emulator } from '../../src/emulator/server';

describe('chat engine against the emulator', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => {
    emu = await startEmulator({
      config: {
        rateLimitWindowSeconds: 2,
        deployments: [
          { name: 'chat', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          // A name that does not reveal the model family: the engine learns it from the service.
          { name: 'reasoner', model: 'o3-mini', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          { name: 'tiny', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1, tokensPerMinute: 1e7 },
        ],
      },
    });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  const base = { systemPrompt: 'Be brief.', route: 'v1' as const };
  const run = (deployment: string, content: string, params = {}, extra = {}) =>
    runChat({ client, deployment, messages: [{ role: 'user', content }], params: { ...base, ...params }, signal: new AbortController().signal, onDelta: () => {}, ...extra });

  it('streams a reply with usage, on both routes', async () => {
    for (const route of ['v1', 'deployment'] as const) {
      const pieces: string[] = [];
      const r = await runChat({ client, deployment: 'chat', messages: [{ role: 'user', content: 'hi' }], params: { ...base, route, apiVersion: '2024-10-21' }, signal: new AbortController().signal, onDelta: (t) => pieces.push(t) });
      assert.match(r.content, /You said: hi/);
      assert.equal(pieces.join(''), r.content);
      assert.ok(r.usage && r.usage.total_tokens > 0);
      assert.equal(r.finishReason, 'stop');
    }
  });

  it('switches max_tokens to max_completion_tokens when the model rejects it, and drops an unsupported temperature', async () => {
    const r = await run('reasoner', '/long 200', { maxTokens: 7, temperature: 0.3 });
    assert.equal(r.finishReason, 'length');
    assert.equal(r.usage?.completion_tokens, 7);
  });

  it('waits out a 429 with a countdown, then answers', async () => {
    await run('tiny', 'first');
    const ticks: number[] = [];
    const r = await run('tiny', 'second', {}, { onRetryWait: (s: number) => ticks.push(s) });
    assert.match(r.content, /You said: second/);
    assert.ok(ticks.length >= 1 && ticks[0] >= 1 && ticks[0] <= 2, `countdown ${ticks}`);
  });

  it('returns what arrived, marked stopped, when the user stops', async () => {
    const slow = await startEmulator({ config: { streamTokenDelayMs: 5 } });
    const c = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey } });
    try {
      const ac = new AbortController();
      let seen = 0;
      const r = await runChat({ client: c, deployment: 'gpt-4o', messages: [{ role: 'user', content: '/long 3000' }], params: base, signal: ac.signal, onDelta: () => ++seen === 10 && ac.abort() });
      assert.equal(r.stopped, true);
      assert.ok(r.content.length > 0);
    } finally {
      await c.close();
      await slow.close();
    }
  });

  it('throws a ServiceError a person can act on for an unknown deployment', async () => {
    await assert.rejects(run('nope', 'x'), (e: unknown) => e instanceof ServiceError && /deployment "nope" does not exist/.test(e.message));
  });
});

describe('conversation model', () => {
  it('builds the request from the system prompt and the turns, skipping failed replies', () => {
    const c = createConversation({ connectionId: 'c1', connectionLabel: 'Local', deployment: 'gpt-4o' });
    c.turns.push({ id: 'u1', role: 'user', content: 'Hello', createdAt: 1 });
    c.turns.push({ id: 'a1', role: 'assistant', content: '', createdAt: 2, error: { message: 'x', kind: 'http' } });
    c.turns.push({ id: 'u2', role: 'user', content: 'Again', createdAt: 3 });
    assert.deepEqual(requestMessages(c).map((m) => m.role), ['system', 'user', 'user']);
  });

  it('exports Markdown and JSON that round-trips; titles are cut at a word', () => {
    const c = createConversation({ connectionId: 'c1', connectionLabel: 'Local', deployment: 'gpt-4o' });
    c.turns.push({ id: 'u1', role: 'user', content: 'Hi', createdAt: 1 });
    c.turns.push({ id: 'a1', role: 'assistant', content: 'Hello!', createdAt: 2, usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }, model: 'gpt-4o-1', latencyMs: 30, deployment: 'gpt-4o' });
    assert.match(toMarkdown(c), /## You\n\nHi\n\n## gpt-4o \(gpt-4o-1, 7 tokens, 30 ms\)\n\nHello!/);
    assert.deepEqual(parseConversation(toJson(c)), c);
    assert.equal(parseConversation('{"nope":1}'), undefined);
    assert.deepEqual(totals(c), { prompt: 5, completion: 2, total: 7 });
    assert.equal(titleFrom('a '.repeat(50)), `${'a '.repeat(30).trim()}…`);
  });
});

describe('webview message protocol', () => {
  it('accepts well-formed messages and drops everything else', () => {
    assert.deepEqual(parseViewMessage({ type: 'send', text: 'hi' }), { type: 'send', text: 'hi' });
    assert.equal(parseViewMessage({ type: 'send', text: '   ' }), undefined);
    assert.equal(parseViewMessage({ type: 'send', text: 5 }), undefined);
    assert.equal(parseViewMessage({ type: 'eval', code: 'x' }), undefined);
    assert.equal(parseViewMessage('send'), undefined);
    assert.deepEqual(parseViewMessage({ type: 'setParams', params: { temperature: 0.5, extra: 1 } }), { type: 'setParams', params: { temperature: 0.5 } });
    assert.equal(parseViewMessage({ type: 'setParams', params: { temperature: 7 } }), undefined);
    assert.equal(parseViewMessage({ type: 'setParams', params: { apiVersion: '../x' } }), undefined);
    assert.deepEqual(parseViewMessage({ type: 'setParams', params: { maxTokens: null } }), { type: 'setParams', params: { maxTokens: undefined } });
    assert.equal(parseHostMessage({ type: 'delta', turnId: 't', text: 1 }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'delta', turnId: 't', text: 'x' }), { type: 'delta', turnId: 't', text: 'x' });
  });

  it('lets only http, https and mailto links out', () => {
    assert.ok(isSafeLink('https://learn.microsoft.com'));
    assert.ok(isSafeLink('mailto:a@b.c'));
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'vscode://x', 'file:///etc/passwd', 'command:workbench.action.quit', 'nope']) assert.equal(isSafeLink(bad), false, bad);
  });
});
