/**
 * Tokens as billed, where a request's figures are shown: the panel's reply footer and Compare's
 * column say the cached input and the reasoning apart from the totals.
 */
import assert from 'node:assert/strict';
import { tokensText } from '../../src/chat/compare/figures';
import type { ChatTurn } from '../../src/chat/model';
import { formatUsage } from '../../src/webview/chat/turnView';

describe('tokens billed apart: cached input and reasoning', () => {
  it("Compare's column: in, out, then cached and reasoning when there are any", () => {
    assert.equal(tokensText({ tokens: { prompt: 1500, cached: 1408, completion: 300, reasoning: 64 } }), '1500 in, 300 out, 1408 cached, 64 reasoning');
    assert.equal(tokensText({ tokens: { prompt: 10, cached: 0, completion: 5, reasoning: 0 } }), '10 in, 5 out');
  });

  it('the reply footer: the model that answered, the sum, and the cached and reasoning parts', () => {
    const turn = {
      id: 't',
      role: 'assistant',
      content: 'x',
      createdAt: 0,
      model: 'gpt-4.1-nano-2025-04-14',
      usage: {
        prompt_tokens: 1500,
        completion_tokens: 300,
        total_tokens: 1800,
        prompt_tokens_details: { cached_tokens: 1408 },
        completion_tokens_details: { reasoning_tokens: 64 },
      },
    } as unknown as ChatTurn;
    assert.equal(formatUsage(turn), 'gpt-4.1-nano-2025-04-14 · 1500 + 300 = 1800 tokens (1408 cached, 64 reasoning)');
  });

  it("the reply footer: an audio model's audio input and output tokens apart, where the usage has them", () => {
    const usage = {
      ...{ prompt_tokens: 120, completion_tokens: 90, total_tokens: 210 },
      ...{ prompt_tokens_details: { cached_tokens: 0, audio_tokens: 40 }, completion_tokens_details: { audio_tokens: 75 } },
    };
    const turn = { id: 't', role: 'assistant', content: 'x', createdAt: 0, model: 'gpt-4o-audio-preview', usage } as unknown as ChatTurn;
    assert.equal(formatUsage(turn), 'gpt-4o-audio-preview · 120 + 90 = 210 tokens (40 audio in, 75 audio out)');
    assert.equal(formatUsage({ ...turn, usage: { ...usage, prompt_tokens_details: { audio_tokens: 0 }, completion_tokens_details: {} } }), 'gpt-4o-audio-preview · 120 + 90 = 210 tokens');
  });
});
