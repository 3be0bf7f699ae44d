// The language model provider's details a consumer notices: what images and texts cost in tokens,
// which API and names go on the wire, how model options are read, and what each refusal says.
import assert from 'node:assert/strict';
import { readFilterResults } from '../../src/service/contentFilter';
import { buildChatRequest, UnsupportedInputError } from '../../src/chat/engine/chatRequest';
import { lmModelEntries } from '../../src/chat/lm/catalog';
import { ModelOptionError, readModelOptions } from '../../src/chat/lm/modelOptions';
import { createO200kCounter } from '../../src/chat/lm/o200k';
import { ReplyFilteredError } from '../../src/chat/engine/result';
import { buildResponseRequest } from '../../src/chat/engine/responsesRequest';
import { apiRoute } from '../../src/chat/engine/apiChoice';
import { imageTokens, TokenCounter } from '../../src/chat/lm/tokenCount';
import { completeToolCall, ToolArgumentsError, ToolCallAccumulator } from '../../src/chat/engine/toolCalls';
import { ToolNames } from '../../src/chat/engine/toolNames';
import type { NeutralMessage } from '../../src/chat/engine/messages';
import { modelProfile } from '../../src/chat/modelProfile';

/** The first 24 bytes of a PNG of w×h: the signature and the IHDR chunk's size fields. */
function pngHeader(w: number, h: number): Uint8Array {
  const b = Buffer.alloc(24);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
}

describe('language model provider: image tokens as the service bills them', () => {
  it('fits into 2048 × 2048 first, then brings the shortest side to 768, 170 a 512-tile plus 85', () => {
    assert.equal(imageTokens({ data: pngHeader(512, 512) }), 85 + 170, 'a header of exactly 24 bytes is read');
    assert.equal(imageTokens({ data: pngHeader(8192, 512) }), 85 + 170 * 4, 'a panorama: 2048 × 128 after fitting, four tiles');
    assert.equal(imageTokens({ data: pngHeader(8192, 2048) }), 85 + 170 * 4, 'both sides fitted: 2048 × 512');
    assert.equal(imageTokens({ data: pngHeader(2048, 1024) }), 85 + 170 * 6, 'shortest side to 768: 1536 × 768');
    assert.equal(imageTokens({ data: pngHeader(0, 300) }), 85, 'a side of zero makes no tiles');
  });

  it('reads the size from PNGs only; anything else counts as 1024 × 1024', () => {
    const assumed = 85 + 170 * 4;
    assert.equal(imageTokens({ data: pngHeader(512, 512).subarray(0, 8) }), assumed, 'a PNG cut before its size');
    const jpeg = Buffer.alloc(64, 0x11);
    jpeg.set([0xff, 0xd8, 0xff, 0xe0]);
    assert.equal(imageTokens({ data: jpeg }), assumed);
    const almost = Buffer.alloc(64);
    almost.set([0x89, 0x50]);
    assert.equal(imageTokens({ data: almost }), assumed, 'half a PNG signature is not a PNG');
  });
});

describe('language model provider: text tokens', () => {
  it('keeps a repeated text while there is room: the second of two texts does not push out the first', () => {
    let calls = 0;
    const counter = new TokenCounter(() => ++calls, 2);
    counter.text('a');
    counter.text('b');
    counter.text('a');
    assert.equal(calls, 2);
  });

  it('the o200k counter counts special-token text as text instead of refusing the message', () => {
    const n = createO200kCounter().text('Say <|endoftext|> literally');
    assert.ok(n > 3, String(n));
  });
});

describe('language model provider: routes, names and options', () => {
  it("takes the model's preferred API when the provider speaks it, else the first it accepts", () => {
    assert.equal(apiRoute({ apis: ['chat', 'responses'], preferredApi: 'responses' }), 'responses');
    assert.equal(apiRoute({ apis: ['chat'], preferredApi: 'responses' }), 'chat');
    assert.equal(apiRoute({ apis: ['responses', 'chat'], preferredApi: 'chat' }, ['responses']), 'responses');
  });

  it('stand-ins count up past the second, and an empty name gets one too', () => {
    const names = new ToolNames(['a.b', 'a,b', 'a b', '']);
    assert.deepEqual(['a.b', 'a,b', 'a b', ''].map((n) => names.wire(n)), ['a_b', 'a_b_2', 'a_b_3', 'tool']);
    assert.equal(names.offered('tool'), '');
  });

  it('reads every spelling of the options, takes their bounds and refuses past them', () => {
    assert.deepEqual(readModelOptions({ temperature: 0, topP: 1, max_completion_tokens: 5 }), { temperature: 0, topP: 1, maxTokens: 5 });
    assert.deepEqual(readModelOptions({ temperature: 2, topP: 0, maxOutputTokens: 1_000_000 }), { temperature: 2, topP: 0, maxTokens: 1_000_000 });
    assert.deepEqual(readModelOptions({ reasoningEffort: 'low' }), { reasoningEffort: 'low' });
    assert.throws(() => readModelOptions({ temperature: -0.01 }), (e: Error) => e.name === 'ModelOptionError' && e instanceof ModelOptionError);
    assert.throws(() => readModelOptions({ topP: 1.01 }), /"topP" is 1.01/);
    assert.throws(() => readModelOptions({ maxOutputTokens: 0 }), /"maxOutputTokens" is 0/);
  });

  it('a deployment in the model picker: detail and tooltip when the label is the host, without a version, without limits', () => {
    const [e] = lmModelEntries({ id: 'c', label: 'contoso.openai.azure.com', endpoint: 'https://contoso.openai.azure.com' }, [{ name: 'chat', model: 'gpt-4o', sku: 'Standard', source: 'arm' }]);
    assert.equal(e.detail, 'contoso.openai.azure.com');
    assert.equal(e.tooltip, 'Deployment "chat" of gpt-4o on contoso.openai.azure.com · Standard');
  });
});

describe('language model provider: calls and refusals in words', () => {
  it("a call without an id gets one to be answered by; without a name, or with arguments that are not an object, it is refused", () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, function: { name: 'now', arguments: '  ' } }]);
    assert.deepEqual(acc.take(), [{ callId: 'call_0', name: 'now', input: {} }], 'blank arguments are no arguments');
    assert.throws(
      () => completeToolCall(1, { id: 'c', name: '', args: '{}' }),
      (e: Error) => e instanceof ToolArgumentsError && e.name === 'ToolArgumentsError' && /tool call #2 has no tool name/.test(e.message),
    );
    for (const args of ['42', '"text"', 'null']) assert.throws(() => completeToolCall(0, { id: 'c', name: 'add', args }), /"add" with arguments that are not a JSON object/, args);
    const long = `{"a": "${'x'.repeat(200)}`;
    assert.throws(() => completeToolCall(0, { id: 'c', name: 'add', args: long }), (e: Error) => e.message.includes(`(${long.slice(0, 80)}…)`));
  });

  it('the content filter names its categories; the provider reads the error by its name', () => {
    const verdicts = readFilterResults({ hate: { filtered: true, severity: 'high' }, violence: { filtered: true, severity: 'medium' } }, 'reply');
    const e = new ReplyFilteredError('chat', verdicts);
    assert.equal(e.name, 'ReplyFilteredError');
    assert.match(e.message, /"chat" part way: hate \(high severity\) in the reply, violence \(medium severity\) in the reply\. Ask again/);
  });

  it('an image a tool returned is refused for a model that reads none, on both APIs', () => {
    const messages: NeutralMessage[] = [{ role: 'user', parts: [{ type: 'toolResult', callId: 'c', parts: [{ type: 'image', mimeType: 'image/png', data: pngHeader(1, 1) }] }] }];
    const input = { deployment: 'mini', profile: modelProfile('o3-mini'), messages, options: {} };
    assert.throws(() => buildChatRequest(input), (e: Error) => e instanceof UnsupportedInputError && e.name === 'UnsupportedInputError');
    assert.throws(() => buildResponseRequest(input), UnsupportedInputError);
  });

  it('tools without a required mode leave the choice to the model; an empty assistant turn is sent empty, with its name', () => {
    const input = { deployment: 'd', profile: modelProfile('gpt-4o'), tools: [{ name: 'now', description: 'Now' }], toolMode: 'auto' as const, options: {} };
    assert.equal(buildChatRequest({ ...input, messages: [] }).tool_choice, undefined);
    assert.equal(buildResponseRequest({ ...input, messages: [] }).tool_choice, undefined);
    const r = buildChatRequest({ ...input, messages: [{ role: 'assistant', name: 'helper', parts: [] }] });
    assert.deepEqual(r.messages, [{ role: 'assistant', content: '', name: 'helper' }]);
  });

  it('on the Responses API: no empty assistant message beside a call, no blank instructions, no reasoning settings unless asked', () => {
    const messages: NeutralMessage[] = [
      { role: 'system', parts: [] },
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'assistant', parts: [{ type: 'toolCall', callId: 'c1', name: 'now', input: {} }] },
    ];
    const body = JSON.parse(JSON.stringify(buildResponseRequest({ deployment: 'mini', profile: modelProfile('o3-mini'), messages, options: {} }))) as Record<string, unknown>;
    assert.equal(body.instructions, 'Be brief.');
    assert.deepEqual(body.input, [{ type: 'function_call', call_id: 'c1', name: 'now', arguments: '{}' }]);
    assert.equal('reasoning' in body, false);
  });
});
