/** A reply in flight during a reload or a crash: saved as it streams (throttled), marked interrupted when loaded again. */
import assert from 'node:assert/strict';
import { createConversation, parseConversation, requestMessages, toJson } from '../../src/chat/conversation';
import type { ChatTurn } from '../../src/chat/model';
import { DRAFT_SAVE_MS, markInterrupted, ThrottledSave } from '../../src/chat/replyDraft';
import { parseHostMessage } from '../../src/webview/chat/protocol';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a reply in flight during a reload', () => {
  function conversationSavedMidReply() {
    const c = createConversation({ connectionId: 'k', connectionLabel: 'res', deployment: 'gpt-4o' });
    c.turns.push({ id: 'u1', role: 'user', content: 'tell me a story', createdAt: 1 });
    c.turns.push({ id: 'a1', role: 'assistant', content: 'Once upon a ti', createdAt: 2, deployment: 'gpt-4o', streaming: true });
    // What is on disk when the window reloads or the extension host dies: the file as last saved.
    return parseConversation(toJson(c))!;
  }

  it('what arrived is in the saved file; loaded again, the reply is marked interrupted and kept', () => {
    const c = conversationSavedMidReply();
    assert.equal(c.turns[1].content, 'Once upon a ti');
    assert.equal(markInterrupted(c), true, 'changed: to be saved');
    assert.deepEqual(c.turns[1], { id: 'a1', role: 'assistant', content: 'Once upon a ti', createdAt: 2, deployment: 'gpt-4o', interrupted: true });
    assert.equal(markInterrupted(c), false, 'nothing more to mark');
    // The page takes the marked turn (the protocol checks the field), and the kept text goes along as history.
    assert.ok(parseHostMessage({ type: 'turnFinished', turn: c.turns[1] }));
    assert.equal(parseHostMessage({ type: 'turnFinished', turn: { ...c.turns[1], interrupted: 'yes' } }), undefined);
    assert.deepEqual(requestMessages(c).map((m) => m.content), ['You are a helpful assistant.', 'tell me a story', 'Once upon a ti']);
  });

  it('leaves finished replies, user messages and background replies (followed again by id) alone', () => {
    const turns: ChatTurn[] = [
      { id: 'u', role: 'user', content: 'x', createdAt: 1, streaming: true },
      { id: 'done', role: 'assistant', content: 'y', createdAt: 2 },
      { id: 'bg', role: 'assistant', content: '', createdAt: 3, streaming: true, responseId: 'resp_1', backgroundStatus: 'in_progress' },
      { id: 'flag', role: 'assistant', content: 'z', createdAt: 4, streaming: false },
    ];
    const before = JSON.stringify(turns);
    assert.equal(markInterrupted({ turns }), false);
    assert.equal(JSON.stringify(turns), before);
  });

  it('saves a stream at most once a second: the first piece schedules a save, the rest ride along', async () => {
    let saves = 0;
    const draft = new ThrottledSave(async () => void saves++, 40);
    for (let i = 0; i < 20; i++) draft.touch();
    assert.equal(saves, 0, 'not at every piece');
    await sleep(70);
    assert.equal(saves, 1, 'one save for the burst');
    draft.touch();
    await sleep(70);
    assert.equal(saves, 2, 'a later piece is saved too');
    assert.equal(DRAFT_SAVE_MS, 1000);
  });

  it('settling cancels a scheduled save and waits for one under way, so the final save is the last written; a failed draft save is not thrown', async () => {
    const written: string[] = [];
    let text = 'draft';
    let release = () => {};
    const draft = new ThrottledSave(() => new Promise<void>((resolve) => (release = () => (written.push(text), resolve()))), 10);
    draft.touch();
    await sleep(30);
    // A save under way: settle waits for it.
    let settled = false;
    const settling = draft.settle().then(() => (settled = true));
    await sleep(5);
    assert.equal(settled, false);
    release();
    await settling;
    text = 'final';
    written.push(text);
    draft.touch();
    await draft.settle();
    await sleep(30);
    assert.deepEqual(written, ['draft', 'final'], 'nothing written after the final save');
    const failing = new ThrottledSave(() => Promise.reject(new Error('disk full')), 5);
    failing.touch();
    await sleep(20);
    await failing.settle();
  });
});
