import assert from 'node:assert/strict';
import type { NeutralMessage } from '../../src/chat/engine/messages';
import { readModelOptions } from '../../src/chat/lm/modelOptions';
import { UnsupportedInputError } from '../../src/chat/engine/parts';
import { buildResponseRequest, toResponseItems } from '../../src/chat/engine/responsesRequest';
import { modelProfile } from '../../src/chat/modelProfile';
import { adaptationNote, adaptResponseAfterRefusal } from '../../src/chat/paramAdaptation';
import type { ResponseRequest } from '../../src/service/types';

const PNG_1x1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));
const url = `data:image/png;base64,${Buffer.from(PNG_1x1).toString('base64')}`;
const codex = modelProfile('gpt-5-codex');

describe('language model messages → Responses input', () => {
  it('makes system messages the instructions and keeps the conversation in order', () => {
    const out = toResponseItems(
      [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Hi.' }] },
        { role: 'system', parts: [{ type: 'text', text: 'Answer in English.' }] },
      ],
      codex,
      'codex',
    );
    assert.equal(out.instructions, 'Be brief.\n\nAnswer in English.');
    assert.deepEqual(out.input, [
      { role: 'user', content: 'Hello there' },
      { role: 'assistant', content: 'Hi.' },
    ]);
    assert.equal(toResponseItems([{ role: 'user', parts: [{ type: 'text', text: 'x' }] }], codex, 'c').instructions, undefined, 'no system message: no instructions');
  });

  it('turns tool calls into function_call items and each result into a function_call_output right after, before the user text', () => {
    const messages: NeutralMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Weather in Oslo?' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Looking.' }, { type: 'toolCall', callId: 'call_1', name: 'mcp.weather', input: { city: 'Oslo' } }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Quick.' },
          { type: 'toolResult', callId: 'call_1', parts: [{ type: 'text', text: '4 °C' }, { type: 'image', mimeType: 'image/png', data: PNG_1x1 }] },
        ],
      },
    ];
    const { input } = toResponseItems(messages, codex, 'codex');
    assert.deepEqual(input.slice(1), [
      { role: 'assistant', content: 'Looking.' },
      { type: 'function_call', call_id: 'call_1', name: 'mcp_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '4 °C' },
      // The image the tool returned rides in the user message.
      { role: 'user', content: [{ type: 'input_image', image_url: url }, { type: 'input_text', text: 'Quick.' }] },
    ]);
  });

  it('sends images as input_image parts with a data URL, and refuses them for a model that reads none', () => {
    const msg: NeutralMessage = { role: 'user', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: PNG_1x1 }] };
    assert.deepEqual(toResponseItems([msg], modelProfile('gpt-4o'), 'g').input, [
      { role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: url }] },
    ]);
    assert.throws(
      () => toResponseItems([msg], modelProfile('o3-mini'), 'mini'),
      (e: Error) => e instanceof UnsupportedInputError && /"mini" \(o3-mini\) does not take images\. Remove the image/.test(e.message),
    );
  });
});

describe('language model request parameters on the Responses API', () => {
  const messages: NeutralMessage[] = [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
  const build = (model: string, modelOptions: Record<string, unknown>, extra = {}) =>
    buildResponseRequest({ deployment: 'd', profile: modelProfile(model), messages, options: readModelOptions(modelOptions), ...extra });

  it('gives a reasoning model its effort and max_output_tokens, no temperature, and stores nothing', () => {
    const r = build('gpt-5-codex', { temperature: 0.2, maxTokens: 500, reasoningEffort: 'low' });
    assert.deepEqual(r.reasoning, { effort: 'low' });
    assert.equal(r.max_output_tokens, 500);
    assert.equal(r.temperature, undefined);
    assert.equal(r.store, false, 'the consumer sends the whole conversation each time');
    assert.equal(r.model, 'd');
  });

  it('gives a chat model its sampling parameters, and raises a token limit below what the API takes', () => {
    const r = build('gpt-4o', { temperature: 0.2, top_p: 0.9, maxTokens: 5, reasoningEffort: 'high' });
    assert.equal(r.temperature, 0.2);
    assert.equal(r.top_p, 0.9);
    assert.equal(r.reasoning, undefined, 'a chat model gets no reasoning effort');
    assert.equal(r.max_output_tokens, 16);
  });

  it('passes tools as flat functions under their wire names, and a required tool mode', () => {
    const r = build('gpt-5-codex', {}, { tools: [{ name: 'fs/read', description: 'Reads' }], toolMode: 'required' });
    assert.deepEqual(r.tools, [{ type: 'function', name: 'fs_read', description: 'Reads', parameters: { type: 'object', properties: {} } }]);
    assert.equal(r.tool_choice, 'required');
    assert.equal(build('gpt-4o', {}).tools, undefined);
  });

  it('drops a refused sampling parameter or the reasoning settings, once, with the note the panel shows', () => {
    const r: ResponseRequest = { model: 'd', input: [], temperature: 0.5, reasoning: { effort: 'high' } };
    assert.equal(adaptResponseAfterRefusal(r, { status: 400, param: 'reasoning.effort' }), true);
    assert.equal(r.reasoning, undefined);
    assert.equal(adaptResponseAfterRefusal(r, { status: 400, param: 'temperature' }), true);
    assert.equal(adaptResponseAfterRefusal(r, { status: 400, param: 'temperature' }), false, 'nothing left to drop');
    assert.equal(adaptResponseAfterRefusal(r, { status: 400, param: 'input' }), false, 'the input is not a parameter to drop');
    assert.equal(adaptationNote('reasoning.effort', 'd'), 'Reasoning settings were left out: d does not take them.');
    assert.equal(adaptationNote('top_p', 'd'), 'Top P was left out: d does not take it.');
    assert.equal(adaptationNote('max_tokens', 'd'), undefined, 'a renamed token limit needs no note');
  });
});
