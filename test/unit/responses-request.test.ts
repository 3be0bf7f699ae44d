/** What the chat panel sends to the Responses API for a conversation: the JSON body, as the service reads it. */
import assert from 'node:assert/strict';
import type { RunInput } from '../../src/chat/chatEngine';
import { modelProfile } from '../../src/chat/modelProfile';
import { buildResponseRequest } from '../../src/chat/responsesEngine';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ChatMessage } from '../../src/service/types';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'developer', content: 'Answer in English.' },
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: 'first answer' },
  { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }] },
];

/** The request as it goes over the wire (fields left undefined are not sent). */
function sent(params: RunInput['params'], model: string, extra: Partial<RunInput> = {}, notes: string[] = []) {
  const input: RunInput = { client: {} as AzureOpenAIClient, deployment: 'dep', messages: conversation, params, signal: new AbortController().signal, onDelta: () => {}, ...extra };
  return JSON.parse(JSON.stringify(buildResponseRequest(input, modelProfile(model), notes))) as Record<string, unknown>;
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
    assert.deepEqual(sent({ systemPrompt: '', route: 'v1', reasoningEffort: 'low' }, 'gpt-4o').reasoning, { effort: 'low' }, 'an effort chosen for a model not known to reason is still sent');
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
