/** What the panel shows of a finished background response: its text, its thinking, and how it ended. */
import assert from 'node:assert/strict';
import { resultOf } from '../../src/chat/engine/background';
import type { ResponseObject } from '../../src/service/types';

const response = (fields: Partial<ResponseObject>): ResponseObject => ({ id: 'resp_1', object: 'response', status: 'completed', model: 'gpt-5', output: [], usage: null, ...fields }) as ResponseObject;
const message = (...content: Array<{ type: string; text?: string }>) => ({ type: 'message', role: 'assistant', content });

describe('a finished background response as a reply', () => {
  it('shows the text of its messages, and the summaries of its thinking as paragraphs', () => {
    const r = resultOf(response({
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'First I read.' }, { type: 'summary_text', text: 'Then I answered.' }] },
        message({ type: 'output_text', text: 'Hello ' }, { type: 'output_text', text: 'there.' }),
      ],
    }), 1200);
    assert.equal(r.content, 'Hello there.');
    assert.equal(r.reasoningSummary, 'First I read.\n\nThen I answered.');
    assert.equal(r.latencyMs, 1200);
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.stopped, false);
  });

  it('a reply without reasoning shows no thinking; malformed parts and items show nothing rather than "undefined"', () => {
    const r = resultOf(
      response({
        output: [message({ type: 'output_text' }, { type: 'output_text', text: 'kept' }), { type: 'reasoning' }, { type: 'reasoning', summary: [{ type: 'summary_text' }] }],
      }),
      0,
    );
    assert.equal(r.content, 'kept');
    assert.equal(r.reasoningSummary, undefined);
  });

  it('how it ended: cut at the token limit, filtered, failed, or cancelled by the user', () => {
    const ended = (fields: Partial<ResponseObject>) => {
      const r = resultOf(response(fields), 0);
      return [r.finishReason, r.stopped];
    };
    assert.deepEqual(ended({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } as Partial<ResponseObject>), ['length', false]);
    assert.deepEqual(ended({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } } as Partial<ResponseObject>), ['content_filter', false]);
    assert.deepEqual(ended({ status: 'incomplete' }), ['length', false]);
    assert.deepEqual(ended({ status: 'failed' }), [null, false]);
    assert.deepEqual(ended({ status: 'cancelled' }), [null, true]);
  });

  it('usage reads as Chat Completions usage, reasoning tokens included', () => {
    const r = resultOf(response({ usage: { input_tokens: 10, output_tokens: 250, total_tokens: 260, output_tokens_details: { reasoning_tokens: 192 } } as ResponseObject['usage'] }), 0);
    assert.deepEqual(r.usage, { prompt_tokens: 10, completion_tokens: 250, total_tokens: 260, completion_tokens_details: { reasoning_tokens: 192 } });
    assert.equal(resultOf(response({}), 0).usage, undefined);
  });
});
