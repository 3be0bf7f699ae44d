import assert from 'node:assert/strict';
import { createConversation } from '../../src/chat/conversation';
import type { ConversationView, DeploymentOption } from '../../src/chat/model';
import { contextUse, describeUse, modelOf } from '../../src/webview/chat/contextMeter';

function conversation(deployment = 'chat'): ConversationView {
  return createConversation({ connectionId: 'c1', connectionLabel: 'c', deployment, params: { systemPrompt: 'x'.repeat(40) } });
}
const listed: DeploymentOption[] = [{ connectionId: 'c1', connectionLabel: 'c', deployment: 'chat', model: 'gpt-4' }];

describe('context meter', () => {
  it('finds the model from the listing, else the last reply, else the deployment name', () => {
    const c = conversation();
    assert.equal(modelOf(c, listed), 'gpt-4');
    c.turns.push({ id: 'a', role: 'assistant', content: 'hi', createdAt: 1, model: 'gpt-4o-2024-11-20' });
    assert.equal(modelOf(c, []), 'gpt-4o-2024-11-20');
    assert.equal(modelOf(conversation('o3-mini'), []), 'o3-mini');
  });

  it('counts the last reply\'s prompt and completion, then what came after, the draft and the attachments', () => {
    const c = conversation();
    c.turns.push(
      { id: 'u1', role: 'user', content: 'q', createdAt: 1 },
      { id: 'a1', role: 'assistant', content: 'r', createdAt: 2, usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 } },
      { id: 'u2', role: 'user', content: 'y'.repeat(400), createdAt: 3 },
    );
    assert.deepEqual(contextUse(c, listed, '', 0), { used: 1300, max: 8192, estimated: false });
    assert.deepEqual(contextUse(c, listed, 'z'.repeat(40), 765), { used: 1300 + 10 + 765, max: 8192, estimated: true });
  });

  it('estimates from the text before any reply', () => {
    const c = conversation();
    c.turns.push({ id: 'u1', role: 'user', content: 'q'.repeat(80), createdAt: 1 });
    assert.deepEqual(contextUse(c, listed, '', 0), { used: 10 + 20, max: 8192, estimated: true });
  });

  it('warns from 80 % of the window and says what to do; over the window it says the request will not fit', () => {
    assert.equal(describeUse({ used: 1200, max: 128_000, estimated: false }).level, 'ok');
    assert.equal(describeUse({ used: 1200, max: 128_000, estimated: false }).text, '1.2k / 128k (1%)');
    const near = describeUse({ used: 6600, max: 8192, estimated: true });
    assert.equal(near.level, 'warn');
    assert.equal(near.text, '~6.6k / 8.2k (81%)');
    assert.match(near.detail, /Near the model's limit: clear the chat or start a new one soon/);
    const over = describeUse({ used: 9000, max: 8192, estimated: false });
    assert.equal(over.level, 'full');
    assert.match(over.detail, /larger than the model takes/);
  });
});
