/** Which reply a Responses conversation continues from, and what it sends after it. */
import assert from 'node:assert/strict';
import { continuationOf } from '../../src/chat/continuation';
import { createConversation } from '../../src/chat/conversation';
import type { ChatTurn } from '../../src/chat/model';

const turn = (role: 'user' | 'assistant', content: string, extra: Partial<ChatTurn> = {}): ChatTurn => ({ id: content, role, content, createdAt: 1, ...extra });

describe('Responses continuation', () => {
  const conv = (turns: ChatTurn[]) => ({ ...createConversation({ connectionId: 'c', connectionLabel: 'C', deployment: 'codex' }), turns });
  const stored = { api: 'responses' as const, responseId: 'resp_1', deployment: 'codex' };

  it('continues from the last stored reply with the system prompt and the messages since', () => {
    const c = conv([turn('user', 'a'), turn('assistant', 'b', stored), turn('user', 'c')]);
    assert.deepEqual(continuationOf(c), { previousResponseId: 'resp_1', messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: 'c' }] });
  });

  it('skips a failed reply after it; sends everything when the reply was stopped, unstored, from Chat Completions or another deployment', () => {
    const failed = conv([turn('assistant', 'b', stored), turn('user', 'c'), turn('assistant', '', { error: { message: 'x', kind: 'http' } }), turn('user', 'd')]);
    assert.deepEqual(continuationOf(failed)?.messages.map((m) => m.content).slice(1), ['c', 'd']);
    for (const extra of [{ stopped: true }, { responseId: undefined }, { api: 'chat' as const }, { deployment: 'other' }]) {
      assert.equal(continuationOf(conv([turn('assistant', 'b', { ...stored, ...extra }), turn('user', 'c')])), undefined, JSON.stringify(extra));
    }
    assert.equal(continuationOf(conv([turn('assistant', 'b', stored)])), undefined, 'nothing new to send');
  });
});
