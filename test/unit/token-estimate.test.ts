import assert from 'node:assert/strict';
import { estimateTokens, estimateUsage, tokensForLength } from '../../src/chat/tokenEstimate';

describe('token estimates', () => {
  it('counts about four characters a token, rounding up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abc'), 1);
    assert.equal(estimateTokens('a'.repeat(400)), 100);
    assert.equal(tokensForLength(401), 101);
    assert.equal(tokensForLength(-5), 0);
  });

  it('estimates a stopped reply\'s usage from the prompt as sent and the text that arrived', () => {
    const usage = estimateUsage([{ content: 'a'.repeat(40) }, { content: 'b'.repeat(8) }], 'c'.repeat(20));
    assert.deepEqual(usage, { prompt_tokens: 4 + 10 + 4 + 2, completion_tokens: 5, total_tokens: 25 });
  });

  it('a message with an image counts its text and the image', () => {
    const usage = estimateUsage([{ content: [{ type: 'text', text: 'abcdefgh' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }], '');
    assert.equal(usage.prompt_tokens, 4 + 2 + 765);
  });
});
