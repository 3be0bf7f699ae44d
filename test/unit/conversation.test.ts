import assert from 'node:assert/strict';
import { createConversation, requestMessages, titleFrom, toMarkdown, parseConversation, toJson, totals } from '../../src/chat/conversation';

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
    c.turns.push({
      id: 'a1',
      role: 'assistant',
      content: 'Hello!',
      createdAt: 2,
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      model: 'gpt-4o-1',
      latencyMs: 30,
      deployment: 'gpt-4o',
    });
    assert.match(toMarkdown(c), /## You\n\nHi\n\n## gpt-4o \(gpt-4o-1, 7 tokens, 30 ms\)\n\nHello!/);
    assert.deepEqual(parseConversation(toJson(c)), c);
    assert.equal(parseConversation('{"nope":1}'), undefined);
    assert.deepEqual(totals(c), { prompt: 5, completion: 2, total: 7 });
    assert.equal(titleFrom('a '.repeat(50)), `${'a '.repeat(30).trim()}…`);
  });
});
