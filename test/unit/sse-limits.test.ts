import assert from 'node:assert/strict';
import { readChatStream } from '../../src/service/chatStream';
import { ChatAccumulator } from '../support/streamChat';
import { ServiceError } from '../../src/service/errors';
import { SseLimitError, SseParser } from '../../src/service/sse';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const p of parts) yield p;
}

async function accumulate(body: AsyncIterable<string>): Promise<string> {
  const acc = new ChatAccumulator();
  for await (const c of readChatStream(body, 'h')) acc.add(c);
  return acc.content;
}

describe('stream reading against a hostile or broken service', () => {
  it('a line without an end is refused once it passes the line cap, not buffered for ever', () => {
    const p = new SseParser({ maxLineLength: 1 << 20 });
    const piece = 'x'.repeat(64 * 1024);
    assert.throws(() => {
      for (let i = 0; i < 64; i++) p.push(i === 0 ? `data: ${piece}` : piece);
    }, SseLimitError);
  });

  it('the line cap counts only the unfinished line, not the lines before it in the chunk', () => {
    const p = new SseParser({ maxLineLength: 10 });
    assert.deepEqual(p.push(`data: x\n${'a'.repeat(10)}`), [], 'ten characters pending: at the cap, not past it');
    assert.throws(() => p.push('a'), SseLimitError);
  });

  it('an event of many data lines is refused past the event cap', () => {
    const p = new SseParser({ maxEventLength: 1000 });
    assert.throws(() => p.push(`${'data: 0123456789\n'.repeat(200)}\n`), SseLimitError);
  });

  it('a long line split over many reads still parses whole, and so does CRLF split across reads', () => {
    const p = new SseParser();
    const long = 'y'.repeat(200_000);
    const events = [];
    for (let i = 0; i < long.length; i += 1000) events.push(...p.push(i === 0 ? `data: ${long.slice(0, 1000)}` : long.slice(i, i + 1000)));
    events.push(...p.push('\r'), ...p.push('\n\r\n'), ...p.push('data: b\n\n'));
    assert.deepEqual(events.map((e) => e.data.length), [200_000, 1]);
  });

  it('the chat stream reader turns an over-long line into a service error', async () => {
    await assert.rejects(accumulate(chunks('data: ', 'z'.repeat(2 << 20))), (e: unknown) => e instanceof ServiceError && e.kind === 'invalid-response' && /longer than/.test(e.message));
  });

  it('a frame whose choices is not a list is a service error, not a TypeError', async () => {
    for (const frame of ['{"choices":{"0":{"delta":{"content":"x"}}}}', 'null', '[1]', '"text"']) {
      await assert.rejects(accumulate(chunks(`data: ${frame}\n\n`, 'data: [DONE]\n\n')), (e: unknown) => e instanceof ServiceError && e.kind === 'invalid-response', frame);
    }
    assert.equal(await accumulate(chunks('data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}\n\n', 'data: [DONE]\n\n')), 'ok');
  });
});

describe('SSE parser limits at their edges', () => {
  const feed = (p: SseParser, ...parts: string[]) => parts.flatMap((x) => p.push(x));

  it('a pending line may reach the cap exactly, not one character past it', () => {
    const p = new SseParser({ maxLineLength: 10 });
    assert.deepEqual(feed(p, 'data: 123', '4'), []);
    assert.throws(() => p.push('5'), (e: unknown) => e instanceof SseLimitError && e.name === 'SseLimitError' && /longer than 10 characters/.test(e.message));
  });

  it('an event may carry exactly the cap in data (each line counts with its newline), not more', () => {
    const ok = new SseParser({ maxEventLength: 10 });
    assert.deepEqual(feed(ok, 'data: 1234\n', 'data: 5678\n\n'), [{ data: '1234\n5678' }]);
    assert.deepEqual(feed(ok, 'data: 123456789\n\n'), [{ data: '123456789' }], 'the count starts again with each event');
    const over = new SseParser({ maxEventLength: 10 });
    assert.throws(() => feed(over, 'data: 1234\n', 'data: 5678\n', 'data: \n'), /larger than 10 characters/);
  });

  it('joins a line that arrives in many pieces', () => {
    const p = new SseParser({ maxLineLength: 100 });
    assert.deepEqual(feed(p, 'da', 'ta: x', 'y', 'z\n', '\n', 'data: ', 'next\n\n'), [{ data: 'xyz' }, { data: 'next' }]);
    assert.deepEqual([...feed(p, 'data: tail'), ...p.end()], [{ data: 'tail' }]);
  });
});
