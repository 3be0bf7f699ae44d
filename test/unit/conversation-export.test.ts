/** What a user gets from a conversation: its title, what is sent next, the exports, a stored file read back. */
import assert from 'node:assert/strict';
import { createConversation, newId, parseConversation, requestMessages, titleFrom, toJson, toMarkdown, type Conversation } from '../../src/chat/conversation';

function sample(): Conversation {
  const c = createConversation({ connectionId: 'k', connectionLabel: 'Contoso (east)', deployment: 'gpt-4o', params: { systemPrompt: 'Be brief.' } });
  c.turns.push(
    { id: 'u1', role: 'user', content: 'Hi', createdAt: 1 },
    {
      id: 'a1',
      role: 'assistant',
      content: 'Hello!',
      createdAt: 2,
      deployment: 'gpt-4o',
      model: 'gpt-4o-2024-11-20',
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
      latencyMs: 420,
    },
    { id: 'u2', role: 'user', content: 'Again', createdAt: 3 },
    { id: 'a2', role: 'assistant', content: '', createdAt: 4, error: { message: 'Rate limited: try in 3 s.', kind: 'http', status: 429 } },
    { id: 'u3', role: 'user', content: 'And?', createdAt: 5 },
    { id: 'a3', role: 'assistant', content: '', createdAt: 6, stopped: true },
    { id: 'a4', role: 'assistant', content: 'Partial', createdAt: 7, usage: { prompt_tokens: 20, completion_tokens: 1, total_tokens: 21 } },
  );
  return c;
}

describe('conversations', () => {
  it('start with an id, a title naming the deployment and the default system prompt', () => {
    const c = createConversation({ connectionId: 'k', connectionLabel: 'K', deployment: 'o3-mini' });
    assert.match(c.id, /^conv_[0-9a-z]{8,}[0-9a-z]{6,8}$/);
    assert.notEqual(createConversation({ connectionId: 'k', connectionLabel: 'K', deployment: 'o3-mini' }).id, c.id);
    assert.equal(c.title, 'Chat with o3-mini');
    assert.deepEqual(c.params, { systemPrompt: 'You are a helpful assistant.', route: 'v1' });
    assert.match(newId('t_'), /^t_[0-9a-z]+$/);
    assert.ok(newId('t_').length <= 2 + 9 + 8, 'the random part is cut to 8 characters');
  });

  it('take their title from the first line of the first message, cut at a word', () => {
    assert.equal(titleFrom('  Explain   the\tlistener \nsecond line'), 'Explain the listener');
    assert.equal(titleFrom('   \n'), 'New chat');
    assert.equal(titleFrom('x'.repeat(60)), 'x'.repeat(60), 'exactly 60 characters stay whole');
    const long = 'Please explain how the webhook listener verifies signatures against several secrets';
    const title = titleFrom(long);
    assert.equal(title, 'Please explain how the webhook listener verifies signatures…');
    assert.ok(title.length <= 61);
  });

  it('send the system prompt and every turn with content, leaving out failed and empty replies', () => {
    assert.deepEqual(requestMessages(sample()), [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Again' },
      { role: 'user', content: 'And?' },
      { role: 'assistant', content: 'Partial' },
    ]);
    const noSystem = sample();
    noSystem.params.systemPrompt = '  \n';
    assert.equal(requestMessages(noSystem)[0].role, 'user', 'a blank system prompt is not sent');
  });

  it('export as Markdown with totals, the system prompt, each reply\'s details and errors', () => {
    const md = toMarkdown(sample());
    assert.equal(
      md,
      [
        '# Chat with gpt-4o', '', '- Deployment: gpt-4o (Contoso (east))', '- Tokens: 29 prompt + 4 completion = 33', '',
        '## System', '', 'Be brief.', '',
        '## You', '', 'Hi', '',
        '## gpt-4o (gpt-4o-2024-11-20, 12 tokens, 420 ms)', '', 'Hello!', '',
        '## You', '', 'Again', '',
        '## Assistant', '', '> Error: Rate limited: try in 3 s.', '',
        '## You', '', 'And?', '',
        '## Assistant', '', '', '',
        '## Assistant (21 tokens)', '', 'Partial', '',
      ].join('\n'),
    );
    const bare = sample();
    bare.params.systemPrompt = '';
    assert.doesNotMatch(toMarkdown(bare), /## System/);
  });

  it('read back only what they wrote', () => {
    const c = sample();
    assert.deepEqual(parseConversation(toJson(c)), c);
    const good = JSON.parse(toJson(c));
    for (const broken of [{ version: 2 }, { id: 1 }, { turns: {} }, { deployment: null }, { params: undefined }]) {
      assert.equal(parseConversation(JSON.stringify({ ...good, ...broken })), undefined, JSON.stringify(broken));
    }
    for (const text of ['', 'null', '[]', '{"version":1}', 'not json']) assert.equal(parseConversation(text), undefined, text);
  });
});
