/** The runner's pieces that need no service: reading a report's figures, and the panel's messages in the neutral form. */
import assert from 'node:assert/strict';
import { chooseApi, NoRouteError } from '../../src/chat/engine/apiChoice';
import { neutralMessages } from '../../src/chat/engine/messages';
import { failureOf, rateLimitOf, RequestClock, tokensOf } from '../../src/chat/engine/report';
import { errorInfo, ReplyFilteredError } from '../../src/chat/engine/result';
import { UnofferedToolError } from '../../src/chat/engine/toolNames';
import { ApiMemory } from '../../src/chat/apiMemory';
import { modelProfile } from '../../src/chat/modelProfile';
import { ServiceError } from '../../src/service/errors';

describe('chat runner report figures', () => {
  it('reads the remaining requests and tokens the service sent, whole numbers only', () => {
    assert.deepEqual(rateLimitOf(undefined), {});
    assert.deepEqual(rateLimitOf({}), {});
    assert.deepEqual(rateLimitOf({ 'x-ratelimit-remaining-requests': '12', 'x-ratelimit-remaining-tokens': ['900', '1'] }), { remainingRequests: 12, remainingTokens: 900 });
    assert.deepEqual(rateLimitOf({ 'x-ratelimit-remaining-requests': '', 'x-ratelimit-remaining-tokens': '-3' }), {});
    assert.deepEqual(rateLimitOf({ 'x-ratelimit-remaining-requests': '1.5', 'x-ratelimit-remaining-tokens': '7 ' }), { remainingTokens: 7 });
    // The limits beside them, when the service sends them: the usage view's headroom is "left of".
    assert.deepEqual(rateLimitOf({ 'x-ratelimit-remaining-tokens': '38200', 'x-ratelimit-limit-tokens': '50000', 'x-ratelimit-limit-requests': 'x' }), { remainingTokens: 38200, limitTokens: 50000 });
  });

  it('counts tokens with the cached and reasoning parts, zero where the service gave none', () => {
    assert.equal(tokensOf(undefined), undefined);
    assert.deepEqual(tokensOf({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }), { prompt: 10, cached: 0, completion: 5, reasoning: 0 });
    assert.deepEqual(
      tokensOf({
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 3 },
      }),
      { prompt: 10, cached: 4, completion: 5, reasoning: 3 },
    );
  });

  it('tells a 429 and its wait, a filter, and any other failure apart', () => {
    assert.deepEqual(failureOf(new ServiceError({ kind: 'http', host: 'h', status: 429, retryAfterMs: 2500 })), { outcome: 'rate_limited', status: 429, retryAfterMs: 2500 });
    assert.deepEqual(failureOf({ status: 429 }), { outcome: 'rate_limited', status: 429 });
    assert.deepEqual(failureOf(new ServiceError({ kind: 'http', host: 'h', status: 400, code: 'content_filter' })), { outcome: 'content_filter', status: 400 });
    assert.deepEqual(failureOf(new ReplyFilteredError('d')), { outcome: 'content_filter' });
    assert.deepEqual(failureOf(new ServiceError({ kind: 'http', host: 'h', status: 500, retryAfterMs: 100 })), { outcome: 'failed', status: 500 });
    assert.deepEqual(failureOf(new Error('x')), { outcome: 'failed' });
    assert.deepEqual(failureOf(undefined), { outcome: 'failed' });
  });

  it('times from sending: the first visible piece once, the total at the report', async () => {
    const clock = new RequestClock();
    const plain = clock.report({ source: 'panel', deployment: 'd', api: 'chat', route: 'v1', attempt: 1, outcome: 'ok' });
    assert.equal('firstTokenMs' in plain, false);
    await new Promise((r) => setTimeout(r, 15));
    clock.firstToken();
    await new Promise((r) => setTimeout(r, 15));
    clock.firstToken();
    const r = clock.report({ source: 'panel', deployment: 'd', api: 'chat', route: 'v1', attempt: 1, outcome: 'ok' });
    assert.ok(r.firstTokenMs! >= 10 && r.firstTokenMs! < r.totalMs && r.totalMs >= 25 && r.totalMs < 10_000, `${r.firstTokenMs} / ${r.totalMs}`);
    assert.equal(r.startedAt, clock.startedAt);
  });
});

describe('chat runner API choice and errors', () => {
  it('the user\'s choice, else what the service needed, else the model\'s preference', () => {
    const memory = new ApiMemory();
    const base = { profile: modelProfile('gpt-4o'), memory, endpoint: 'https://e', deployment: 'd' };
    assert.equal(chooseApi(base), 'chat');
    memory.remember('https://e', 'd', 'responses');
    assert.equal(chooseApi(base), 'responses');
    assert.equal(chooseApi({ ...base, chosen: 'chat' }), 'chat');
    assert.equal(chooseApi({ ...base, deployment: 'other', profile: modelProfile('gpt-5-codex') }), 'responses');
    assert.throws(
      () => chooseApi({ ...base, deployment: 'x', profile: { apis: [], preferredApi: 'chat', family: 'odd' } }),
      (e: Error) => e instanceof NoRouteError && e.name === 'NoRouteError' && /"x" \(odd\) is not served/.test(e.message),
    );
    const long = new UnofferedToolError('t'.repeat(100), 'd').message;
    assert.ok(long.includes(`"${'t'.repeat(64)}"`), 'a made-up name is quoted, cut at 64 characters');
  });

  it('what the panel keeps of an error: the service\'s fields, or the message of anything else', () => {
    const e = new ServiceError({ kind: 'http', host: 'h', status: 429, code: '429', retryAfterMs: 5 });
    assert.deepEqual(errorInfo(e), { message: e.message, kind: 'http', status: 429, code: '429', retryAfterMs: 5 });
    assert.deepEqual(errorInfo(new Error('boom')), { message: 'boom', kind: 'unknown' });
    assert.deepEqual(errorInfo('plain'), { message: 'plain', kind: 'unknown' });
    assert.equal(new ReplyFilteredError('d').message, 'The content filter stopped the reply of "d" part way. Rephrase the request and send it again.');
  });
});

describe("the panel's messages in the neutral form", () => {
  it('system and developer notes read as system, text as text, a data URL image as its bytes with its detail, an address as is', () => {
    const out = neutralMessages([
      { role: 'developer', content: 'Be brief.' },
      { role: 'system', content: 'S' },
      { role: 'assistant', content: 'A' },
      { role: 'tool', content: 'T' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAEC', detail: 'high' } },
          { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } },
        ],
      },
    ]);
    assert.deepEqual(out.slice(0, 4).map((m) => [m.role, m.parts]), [
      ['system', [{ type: 'text', text: 'Be brief.' }]],
      ['system', [{ type: 'text', text: 'S' }]],
      ['assistant', [{ type: 'text', text: 'A' }]],
      ['user', [{ type: 'text', text: 'T' }]],
    ]);
    const [text, bytes, address] = out[4].parts;
    assert.deepEqual(text, { type: 'text', text: 'look' });
    assert.deepEqual(bytes, { type: 'image', mimeType: 'image/png', data: Buffer.from([0, 1, 2]), detail: 'high' });
    assert.deepEqual(address, { type: 'image', mimeType: '', data: new Uint8Array(), url: 'https://example.test/cat.png' });
  });
});
