/** The chat protocol's additions for the Responses API: API choice, reasoning effort, reasoning summaries. */
import assert from 'node:assert/strict';
import { parseParams } from '../../src/chat/model';
import { parseHostMessage, parseViewMessage } from '../../src/webview/chat/protocol';

describe('chat protocol: Responses API fields', () => {
  it('takes an API choice and a reasoning effort, clears them with null, refuses anything else', () => {
    assert.deepEqual(parseParams({ api: 'responses', reasoningEffort: 'high' }), { api: 'responses', reasoningEffort: 'high' });
    assert.deepEqual(parseParams({ api: 'chat' }), { api: 'chat' });
    const cleared = parseParams({ api: null, reasoningEffort: null })!;
    assert.ok('api' in cleared && cleared.api === undefined && 'reasoningEffort' in cleared && cleared.reasoningEffort === undefined);
    for (const bad of [{ api: 'completions' }, { api: 1 }, { reasoningEffort: 'max' }, { reasoningEffort: true }]) assert.equal(parseParams(bad), undefined, JSON.stringify(bad));
    assert.equal(parseViewMessage({ type: 'setParams', params: { api: 'assistants' } }), undefined);
  });

  it('passes reasoning deltas and turns with a summary, notes and a response id; drops malformed ones', () => {
    assert.deepEqual(parseHostMessage({ type: 'reasoningDelta', turnId: 't1', text: 'thinking' }), { type: 'reasoningDelta', turnId: 't1', text: 'thinking' });
    assert.equal(parseHostMessage({ type: 'reasoningDelta', turnId: 't1', text: 5 }), undefined);
    const turn = { id: 't1', role: 'assistant', content: 'hi', createdAt: 1, api: 'responses', reasoningSummary: 'I thought', responseId: 'resp_1', notes: ['Temperature was left out.'] };
    assert.deepEqual(parseHostMessage({ type: 'turnFinished', turn }), { type: 'turnFinished', turn });
    for (const bad of [{ api: 'other' }, { reasoningSummary: 3 }, { notes: 'one' }, { notes: [1] }, { responseId: {} }]) {
      assert.equal(parseHostMessage({ type: 'turnFinished', turn: { ...turn, ...bad } }), undefined, JSON.stringify(bad));
    }
  });

  it('takes the background switch and background statuses; refuses unknown statuses', () => {
    assert.deepEqual(parseParams({ background: true }), { background: true });
    assert.ok('background' in parseParams({ background: null })! && parseParams({ background: false })!.background === undefined);
    assert.equal(parseParams({ background: 'yes' }), undefined);
    assert.deepEqual(
      parseHostMessage({ type: 'backgroundStatus', turnId: 't', status: 'in_progress', elapsedSeconds: 3 }),
      { type: 'backgroundStatus', turnId: 't', status: 'in_progress', elapsedSeconds: 3 },
    );
    assert.equal(parseHostMessage({ type: 'backgroundStatus', turnId: 't', status: 'sleeping', elapsedSeconds: 3 }), undefined);
    const turn = { id: 't1', role: 'assistant', content: '', createdAt: 1, backgroundStatus: 'queued' };
    assert.ok(parseHostMessage({ type: 'turnFinished', turn }));
    assert.equal(parseHostMessage({ type: 'turnFinished', turn: { ...turn, backgroundStatus: 'done' } }), undefined);
  });
});
