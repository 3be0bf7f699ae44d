/** Requests the runner builds that the other tests do not reach: images by address and with a detail, and a background start that continues a stored reply. */
import assert from 'node:assert/strict';
import { startBackground } from '../../src/chat/engine/background';
import { buildChatRequest, samplingFor } from '../../src/chat/engine/chatRequest';
import type { NeutralMessage } from '../../src/chat/engine/messages';
import { PANEL_RUN } from '../../src/chat/engine/options';
import { buildResponseRequest } from '../../src/chat/engine/responsesRequest';
import type { RunRequest } from '../../src/chat/engine/runner';
import { modelProfile } from '../../src/chat/modelProfile';
import type { ResponseObject, ResponseRequest } from '../../src/service/types';

const looking: NeutralMessage[] = [
  {
    role: 'user',
    parts: [
      { type: 'text', text: 'compare' },
      { type: 'image', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]), detail: 'low' },
      { type: 'image', mimeType: '', data: new Uint8Array(), url: 'https://example.test/cat.png' },
    ],
  },
];

describe('chat runner requests', () => {
  it('an image goes by its address when it has one, as data otherwise, with its detail when set, on both APIs', () => {
    const input = { deployment: 'd', profile: modelProfile('gpt-4o'), messages: looking, options: {} };
    assert.deepEqual(buildChatRequest(input).messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'compare' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID', detail: 'low' } },
        { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } },
      ],
    });
    assert.deepEqual(buildResponseRequest(input).input[0], {
      role: 'user',
      content: [
        { type: 'input_text', text: 'compare' },
        { type: 'input_image', image_url: 'data:image/png;base64,AQID', detail: 'low' },
        { type: 'input_image', image_url: 'https://example.test/cat.png' },
      ],
    });
  });

  it('a reasoning model gets no temperature or top P, a model known not to reason no effort, each said; what is not sent is not in the request', () => {
    const notes: string[] = [];
    const asked = { temperature: 0.2, topP: 0.9, maxTokens: 50, reasoningEffort: 'high' as const };
    assert.deepEqual(samplingFor({ profile: modelProfile('o3'), options: asked, deployment: 'r', notes }), { maxTokens: 50, reasoningEffort: 'high' });
    assert.deepEqual(notes, ['Temperature was left out: r does not take it.', 'Top P was left out: r does not take it.']);
    assert.deepEqual(samplingFor({ profile: modelProfile('gpt-4o'), options: asked, deployment: 'c', notes }), { temperature: 0.2, topP: 0.9, maxTokens: 50 });
    assert.equal(notes[2], 'Reasoning settings were left out: c does not take them.');
    const plain = buildResponseRequest({ deployment: 'd', profile: modelProfile('o3'), messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }], options: { temperature: 1 } });
    assert.deepEqual(Object.keys(plain).sort(), ['input', 'model', 'store']);
  });

  it('a background start continues the stored reply with only what was said since, stored, in the background, with a summary asked of a reasoning model', async () => {
    const sent: ResponseRequest[] = [];
    const client = {
      createResponse: async (body: ResponseRequest) => (sent.push(body), { id: 'resp_bg', status: 'queued' } as ResponseObject),
    } as unknown as RunRequest['client'];
    const request: RunRequest = {
      client,
      deployment: 'thinker',
      model: 'o3',
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'the whole conversation' }] }],
      continuation: { previousResponseId: 'resp_1', messages: [{ role: 'user', parts: [{ type: 'text', text: 'and now?' }] }] },
      sampling: { maxTokens: 5 },
      signal: new AbortController().signal,
      onText: () => {},
    };
    const notes: string[] = [];
    assert.equal((await startBackground(request, PANEL_RUN, notes)).id, 'resp_bg');
    assert.deepEqual(JSON.parse(JSON.stringify(sent[0])), {
      model: 'thinker',
      input: [{ role: 'user', content: 'and now?' }],
      previous_response_id: 'resp_1',
      store: true,
      background: true,
      reasoning: { summary: 'auto' },
      max_output_tokens: 16,
    });
    assert.deepEqual(notes, ['Max tokens raised from 5 to 16, the least the Responses API takes.']);
    await startBackground({ ...request, continuation: undefined, model: 'gpt-4o' }, { ...PANEL_RUN, reasoningSummaries: false }, []);
    assert.deepEqual(JSON.parse(JSON.stringify(sent[1].input)), [{ role: 'user', content: 'the whole conversation' }]);
    assert.equal(sent[1].previous_response_id, undefined);
    assert.equal(sent[1].reasoning, undefined);
  });
});
