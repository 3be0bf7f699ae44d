/** What the chat panel sends to the Responses API for a conversation: the JSON body, as the service reads it. */
import assert from 'node:assert/strict';
import { neutralMessages } from '../../src/chat/engine/messages';
import { PANEL_RUN } from '../../src/chat/engine/options';
import { buildResponseRequest } from '../../src/chat/engine/responsesRequest';
import type { Continuation } from '../../src/chat/continuation';
import { modelProfile } from '../../src/chat/modelProfile';
import type { ChatParams } from '../../src/chat/model';
import type { ChatMessage } from '../../src/service/types';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'developer', content: 'Answer in English.' },
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: 'first answer' },
  { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }] },
];

/** The request as it goes over the wire (fields left undefined are not sent). */
function sent(params: ChatParams, model: string, extra: { messages?: ChatMessage[]; continuation?: Continuation } = {}, notes: string[] = []) {
  const c = extra.continuation;
  const request = buildResponseRequest({
    deployment: 'dep',
    profile: modelProfile(model),
    messages: neutralMessages(c?.messages ?? extra.messages ?? conversation),
    previousResponseId: c?.previousResponseId,
    options: { temperature: params.temperature, topP: params.topP, maxTokens: params.maxTokens, reasoningEffort: params.reasoningEffort },
    store: PANEL_RUN.store,
    reasoningSummary: PANEL_RUN.reasoningSummaries,
    notes,
  });
  return JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
}

describe('Responses API request of a chat turn', () => {
  it('the system prompt and developer notes become the instructions; the turns follow in order, an image as an input part', () => {
    assert.deepEqual(sent({ systemPrompt: 'Be brief.', route: 'v1' }, 'gpt-4o'), {
      model: 'dep',
      store: true,
      instructions: 'Be brief.\n\nAnswer in English.',
      input: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: [{ type: 'input_text', text: 'what is this?' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' }] },
      ],
    });
  });

  it('a system message written as parts gives its text parts, joined, as the instructions', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: ' Use French.' }] },
      { role: 'user', content: 'hi' },
    ];
    assert.equal(sent({ systemPrompt: '', route: 'v1' }, 'gpt-4o', { messages }).instructions, 'Be brief. Use French.');
  });

  it('a conversation without a system prompt sends no instructions; a chat model gets no reasoning settings', () => {
    const body = sent({ systemPrompt: '', route: 'v1', temperature: 0, topP: 1 }, 'gpt-4o', { messages: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(body, { model: 'dep', store: true, input: [{ role: 'user', content: 'hi' }], temperature: 0, top_p: 1 });
  });

  it('a reasoning model is asked for a summary of its thinking, with the effort chosen', () => {
    assert.deepEqual(sent({ systemPrompt: '', route: 'v1' }, 'gpt-5-codex').reasoning, { summary: 'auto' });
    assert.deepEqual(sent({ systemPrompt: '', route: 'v1', reasoningEffort: 'high' }, 'gpt-5-codex').reasoning, { summary: 'auto', effort: 'high' });
    assert.deepEqual(
      sent({ systemPrompt: '', route: 'v1', reasoningEffort: 'low' }, 'team-model', { messages: [{ role: 'user', content: 'hi' }] }).reasoning,
      { effort: 'low' },
      'an effort chosen for a model not known by name is still sent',
    );
    const notes: string[] = [];
    assert.equal(sent({ systemPrompt: '', route: 'v1', reasoningEffort: 'low' }, 'gpt-4o', {}, notes).reasoning, undefined, 'a model known not to reason gets none');
    assert.deepEqual(notes, ['Reasoning settings were left out: dep does not take them.']);
  });

  it('a continuation sends only what was said since the stored reply, with its id', () => {
    const body = sent({ systemPrompt: '', route: 'v1' }, 'gpt-4o', { continuation: { previousResponseId: 'resp_1', messages: [{ role: 'user', content: 'and now?' }] } });
    assert.deepEqual(body, { model: 'dep', store: true, input: [{ role: 'user', content: 'and now?' }], previous_response_id: 'resp_1' });
  });

  it('a token limit below the least the API takes is raised, and the reply says so', () => {
    const notes: string[] = [];
    assert.equal(sent({ systemPrompt: '', route: 'v1', maxTokens: 5 }, 'gpt-4o', {}, notes).max_output_tokens, 16);
    assert.deepEqual(notes, ['Max tokens raised from 5 to 16, the least the Responses API takes.']);
    const quiet: string[] = [];
    assert.equal(sent({ systemPrompt: '', route: 'v1', maxTokens: 500 }, 'gpt-4o', {}, quiet).max_output_tokens, 500);
    assert.deepEqual(quiet, []);
  });
});
