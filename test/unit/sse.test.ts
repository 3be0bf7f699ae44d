import assert from 'node:assert/strict';
import { readChatStream } from '../../src/service/chatStream';
import { ChatAccumulator } from '../support/streamChat';
import { ServiceError } from '../../src/service/errors';
import { SseParser, type SseEvent } from '../../src/service/sse';
import { randomSplit, seededRandom } from '../support/random';

const enc = new TextEncoder();

function parseAll(pieces: Array<Uint8Array | string>): SseEvent[] {
  const p = new SseParser();
  const out: SseEvent[] = [];
  for (const piece of pieces) out.push(...p.push(piece));
  out.push(...p.end());
  return out;
}

async function* iterate<T>(items: T[]): AsyncGenerator<T> {
  for (const i of items) yield i;
}

/** An Azure-shaped stream: prompt annotation frame, role + tokens, finish, usage, [DONE]. */
function azureStream(tokens: string[], eol = '\n'): string {
  const frames: unknown[] = [
    { id: '', object: '', created: 0, model: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }], choices: [], usage: null },
    ...tokens.map((t, i) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, finish_reason: null, delta: i === 0 ? { role: 'assistant', content: t } : { content: t } }],
      usage: null,
    })),
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'stop', delta: {} }], usage: null },
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: 9, completion_tokens: tokens.length, total_tokens: 9 + tokens.length } },
  ];
  return frames.map((f) => `data: ${JSON.stringify(f)}${eol}${eol}`).join('') + `data: [DONE]${eol}${eol}`;
}

describe('SSE parser', () => {
  it('parses data, event and id fields and skips comments', () => {
    const events = parseAll([': keep-alive\n', 'event: delta\nid: 7\ndata: {"a":1}\n\n', 'data: second\n\n']);
    assert.deepEqual(events, [{ event: 'delta', id: '7', data: '{"a":1}' }, { id: '7', data: 'second' }]);
  });

  it('joins multi-line data with newlines', () => {
    assert.deepEqual(parseAll(['data: one\ndata: two\n\n']), [{ data: 'one\ntwo' }]);
  });

  it('accepts LF, CRLF and lone CR line ends, including CR and LF in different chunks', () => {
    assert.deepEqual(parseAll(['data: a\r\n\r\ndata: b\r\rdata: c\n\n']).map((e) => e.data), ['a', 'b', 'c']);
    assert.deepEqual(parseAll(['data: a\r', '\n\r', '\ndata: b\r', '\r']).map((e) => e.data), ['a', 'b']);
  });

  it('keeps one event whole when a CRLF line end is split between chunks', () => {
    // Without remembering the CR, the LF would read as a blank line and cut the event in two.
    assert.deepEqual(parseAll(['data: a\r', '\ndata: b\r\n\r\n']), [{ data: 'a\nb' }]);
    assert.deepEqual(parseAll(['event: delta\r', '\ndata: x\r', '\n\r', '\n']), [{ event: 'delta', data: 'x' }]);
  });

  it('dispatches each event as soon as its blank line arrives, whatever ends its lines', () => {
    const p = new SseParser();
    // An LF before a CR in one chunk ends the first line there; a CRLF mid-chunk is one line end.
    assert.deepEqual(p.push('data: a\ndata: b\r\n\r\n'), [{ data: 'a\nb' }]);
    assert.deepEqual(p.push('data: c\r\ndata: d\r\n\r\n'), [{ data: 'c\nd' }]);
    // A CR that ended one chunk swallows only an LF that starts the next one, not one later on.
    assert.deepEqual(p.push('data: e\r'), []);
    assert.deepEqual(p.push('data: f\n'), []);
    assert.deepEqual(p.push('\n'), [{ data: 'e\nf' }]);
  });

  it('a line that arrives in pieces and never ends is delivered whole at the end of input', () => {
    const p = new SseParser();
    assert.deepEqual([...p.push('data: a'), ...p.push('b'), ...p.push('c')], []);
    assert.deepEqual(p.end(), [{ data: 'abc' }]);
  });

  it('reads fields as the SSE specification does: no colon, no space, one space dropped, empty values', () => {
    assert.deepEqual(parseAll(['data\n\n']), [{ data: '' }], 'a field name alone has an empty value');
    assert.deepEqual(parseAll(['data:\n\n']), [{ data: '' }]);
    assert.deepEqual(parseAll(['data:x\n\n', 'data:  two\n\n', 'data: a: b\n\n']).map((e) => e.data), ['x', ' two', 'a: b']);
    assert.deepEqual(parseAll(['event\ndata: x\n\n']), [{ data: 'x' }], 'a colon on the next line is not this line\'s, and an empty type is no type');
    assert.deepEqual(parseAll(['retry: 10\nfoo: bar\ndata: kept\n\n']), [{ data: 'kept' }], 'retry and unknown fields are ignored');
    assert.deepEqual(parseAll(['event: ping\n\ndata: next\n\n']), [{ data: 'next' }], 'an event with no data is dropped, and so is its type');
  });

  it('delivers a final event that lacks its blank line at the end of input', () => {
    assert.deepEqual(parseAll(['data: tail']), [{ data: 'tail' }]);
  });

  it('survives random chunk splits anywhere, inside multi-byte characters too (200 seeds)', () => {
    const tokens = ['Hé', 'llo', ' 世界', ' 🌍', ' <b>', '\\n', ' "q"', ' end'];
    for (const eol of ['\n', '\r\n', '\r']) {
      const bytes = enc.encode(azureStream(tokens, eol));
      const expected = parseAll([bytes]);
      assert.equal(expected.length, tokens.length + 4);
      for (let seed = 1; seed <= 200; seed++) {
        const got = parseAll(randomSplit(bytes, seededRandom(seed)));
        assert.deepEqual(got, expected, `seed ${seed}, eol ${JSON.stringify(eol)}`);
      }
    }
  });
});

describe('chat stream reader', () => {
  it('folds Azure frames into the reply: empty-choice frames, finish reason and usage', async () => {
    const bytes = enc.encode(azureStream(['Hel', 'lo', ' there']));
    const acc = new ChatAccumulator();
    for await (const chunk of readChatStream(iterate(randomSplit(bytes, seededRandom(3))), 'h')) acc.add(chunk);
    assert.equal(acc.content, 'Hello there');
    assert.equal(acc.finishReason, 'stop');
    assert.deepEqual(acc.usage, { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
    assert.equal(acc.model, 'gpt-4o');
  });

  it('throws a ServiceError for a mid-stream error frame, after the chunks before it', async () => {
    const text = 'data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"par"},"finish_reason":null}]}\n\n' +
      'data: {"error":{"code":"server_error","message":"The server had an error."}}\n\n';
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const c of readChatStream(iterate([text]), 'example.test')) seen.push(c.choices[0]?.delta.content ?? '');
      })(),
      (err: unknown) => err instanceof ServiceError && err.kind === 'stream' && err.code === 'server_error' && /server had an error/.test(err.message),
    );
    assert.deepEqual(seen, ['par']);
  });

  it('reports a stream cut before [DONE] instead of returning a partial reply as complete', async () => {
    const text = azureStream(['a', 'b']).replace('data: [DONE]\n\n', '');
    await assert.rejects(
      (async () => {
        for await (const _ of readChatStream(iterate([text]), 'example.test'));
      })(),
      (err: unknown) => err instanceof ServiceError && err.kind === 'stream' && /broke off/.test(err.message),
    );
  });

  it('ignores anything after [DONE]', async () => {
    const text = azureStream(['a']) + 'data: {not json\n\n';
    const acc = new ChatAccumulator();
    for await (const c of readChatStream(iterate([text]), 'h')) acc.add(c);
    assert.equal(acc.content, 'a');
  });
});
