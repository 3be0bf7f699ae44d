/**
 * The usage record: built only from the fields it has room for, checked field by field when read
 * back, and read from a line of the log with JSON.parse.
 */
import assert from 'node:assert/strict';
import {
  createUsageRecord,
  parseUsageLine,
  serializeUsageRecord,
  tokensFromServiceUsage,
  validateUsageRecord,
  type UsageInput,
  type UsageRecord,
} from '../../src/usage/record';
import { rateLimitOf } from '../../src/chat/engine/report';

const base: UsageInput = {
  at: 1_790_000_000_000,
  connectionId: 'conn-1',
  connectionLabel: 'Contoso (prod)',
  deployment: 'gpt-4o',
  model: 'gpt-4o',
  modelVersion: '2024-11-20',
  api: 'chat',
  route: 'v1',
  source: 'panel',
  tokens: { prompt: 1200, cached: 1024, completion: 300, reasoning: 0 },
  firstTokenMs: 412,
  totalMs: 1830,
  outcome: { kind: 'ok' },
  rateLimit: { remainingRequests: 299, remainingTokens: 48_700, limitRequests: 300, limitTokens: 50_000 },
};
const rec = (over: Partial<UsageInput> = {}): UsageRecord => createUsageRecord({ ...base, ...over });
const line = (over: Partial<UsageInput> = {}) => serializeUsageRecord(rec(over));

/** Records of every shape the writer produces: optional fields present and absent, every outcome. */
const variants: Array<Partial<UsageInput>> = [
  {},
  { model: undefined, modelVersion: undefined },
  { modelVersion: undefined },
  { firstTokenMs: undefined },
  { rateLimit: undefined },
  { rateLimit: { remainingRequests: 5, remainingTokens: 6 } },
  { rateLimit: { remainingTokens: 6 } },
  { rateLimit: { remainingRequests: 5 } },
  { rateLimit: { limitTokens: 3 } },
  { rateLimit: { limitRequests: 7 } },
  { rateLimit: { remainingRequests: 1, remainingTokens: 2, limitTokens: 3 } },
  { rateLimit: { limitRequests: 300, limitTokens: 50_000 } },
  { outcome: { kind: 'stopped' } },
  { outcome: { kind: 'content_filter' } },
  { outcome: { kind: 'rate_limited', waitMs: 2000 } },
  { outcome: { kind: 'rate_limited' } },
  { outcome: { kind: 'error', status: 500 } },
  { outcome: { kind: 'error' } },
  { api: 'responses', route: 'deployment', source: 'vscode-chat' },
  { source: 'compare' },
  { source: 'batch', tokens: {} },
  // A batch's minute of lines: a count of requests, no times (the service does not say them).
  { source: 'batch', requests: 250, firstTokenMs: undefined, totalMs: undefined, outcome: { kind: 'error', status: 400 } },
  { requests: 1 },
  { connectionLabel: '' },
  { connectionLabel: 'Ünïcødé ✓ label' },
  { connectionLabel: 'has "quotes" and \\ backslash' },
  { connectionLabel: 'tab\there' },
  { deployment: 'd'.repeat(300), connectionLabel: 'l'.repeat(256), model: 'm'.repeat(256) },
  { at: 0, totalMs: 0, tokens: { prompt: 0, cached: 0, completion: 0, reasoning: 0 } },
];

describe('usage record', () => {
  it('keeps only its own fields: a prompt, a reply or a key on the caller\'s object never reaches the line', () => {
    const secret = 'sk-THE-API-KEY-123';
    const input = {
      ...base,
      messages: [{ role: 'user', content: 'PROMPT-TEXT-4711' }],
      reply: 'REPLY-TEXT-0815',
      apiKey: secret,
      headers: { 'api-key': secret },
      outcome: { kind: 'ok', message: 'REPLY-TEXT-0815' },
      rateLimit: { remainingRequests: 1, remainingTokens: 2, note: secret },
      tokens: { prompt: 1, cached: 0, completion: 2, reasoning: 0, text: 'PROMPT-TEXT-4711' },
    } as unknown as UsageInput;
    const text = serializeUsageRecord(createUsageRecord(input));
    for (const s of ['PROMPT-TEXT-4711', 'REPLY-TEXT-0815', secret, 'messages', 'reply', 'apiKey', 'headers', 'note']) assert.ok(!text.includes(s), s);
    assert.deepEqual(Object.keys(JSON.parse(text)), [
      'at', 'connectionId', 'connectionLabel', 'deployment', 'model', 'modelVersion', 'api', 'route', 'source', 'tokens', 'firstTokenMs', 'totalMs', 'outcome', 'rateLimit',
    ]);
  });

  it('rounds times and tokens to whole numbers, counts missing tokens as 0, and cuts names to 256 characters', () => {
    const r = rec({ totalMs: 1830.6, firstTokenMs: 411.4, tokens: { prompt: 10.5, completion: 3 }, deployment: 'd'.repeat(300), connectionLabel: 'l'.repeat(300) });
    assert.equal(r.totalMs, 1831);
    assert.equal(r.firstTokenMs, 411);
    assert.deepEqual(r.tokens, { prompt: 11, cached: 0, completion: 3, reasoning: 0 });
    assert.equal(r.deployment.length, 256);
    assert.equal(r.connectionLabel.length, 256);
  });

  it('keeps a zero where zero was measured: a first token at once, no requests left', () => {
    const r = rec({ firstTokenMs: 0, outcome: { kind: 'rate_limited', waitMs: 0 }, rateLimit: { remainingRequests: 0, remainingTokens: 0 } });
    assert.equal(r.firstTokenMs, 0);
    assert.deepEqual(r.outcome, { kind: 'rate_limited', waitMs: 0 });
    assert.deepEqual(r.rateLimit, { remainingRequests: 0, remainingTokens: 0, limitRequests: undefined, limitTokens: undefined });
    assert.deepEqual(
      rec({ rateLimit: { limitTokens: 0 } }).rateLimit,
      { remainingRequests: undefined, remainingTokens: undefined, limitRequests: undefined, limitTokens: 0 },
    );
    assert.deepEqual(rec({ rateLimit: { limitRequests: 7 } }).rateLimit?.limitRequests, 7);
    assert.deepEqual(rec({ rateLimit: { remainingRequests: 5 } }).rateLimit?.remainingRequests, 5);
    assert.deepEqual([rec({ api: 'responses' }).api, rec({ route: 'deployment' }).route], ['responses', 'deployment']);
  });

  it('gives undefined, never an exception, for a value that is not a record at all', () => {
    const good = JSON.parse(line());
    for (const v of [null, undefined, 7, 'text', [], { ...good, outcome: null }, { ...good, tokens: null }, { ...good, rateLimit: null }, { ...good, outcome: 'ok' }, { ...good, tokens: 5 }]) {
      assert.equal(validateUsageRecord(v), undefined, JSON.stringify(v));
    }
    assert.equal(validateUsageRecord({ ...good, connectionId: ['c'] }), undefined, 'a list is not a name');
    assert.equal(validateUsageRecord({ ...good, connectionLabel: { length: 1 } }), undefined);
  });

  it('leaves out what it cannot trust rather than storing nonsense', () => {
    const r = rec({ firstTokenMs: -5, totalMs: Number.NaN, outcome: { kind: 'rate_limited', waitMs: Infinity }, rateLimit: { remainingRequests: -1 } });
    assert.equal(r.firstTokenMs, undefined);
    // A time not measured is unknown, never 0.
    assert.equal(r.totalMs, undefined);
    assert.deepEqual(r.outcome, { kind: 'rate_limited', waitMs: undefined });
    assert.equal(r.rateLimit, undefined);
    const odd = createUsageRecord({ ...base, api: 'x', route: 'y', source: 'z', connectionId: '', deployment: 7, model: '', connectionLabel: 3 } as unknown as UsageInput);
    assert.deepEqual([odd.api, odd.route, odd.source, odd.connectionId, odd.deployment, odd.model, odd.connectionLabel], ['chat', 'v1', 'panel', '?', '?', undefined, '']);
    assert.equal(createUsageRecord({ ...base, at: -1 }).at, 0);
    assert.deepEqual(rec({ outcome: { kind: 'error', status: 429.2 } }).outcome, { kind: 'error', status: 429 });
  });

  it('reads back every shape it writes', () => {
    for (const v of variants) {
      const l = line(v);
      const full = validateUsageRecord(JSON.parse(l));
      assert.deepEqual(full, rec(v), l);
      assert.deepEqual(parseUsageLine(l), full, l);
    }
  });

  it('reads a record written in another order or with escapes', () => {
    const r = rec({ connectionLabel: 'say "hi"' });
    const { outcome, ...rest } = r;
    const reordered = JSON.stringify({ outcome, ...rest, extra: 1 });
    assert.deepEqual(parseUsageLine(reordered), r);
    assert.deepEqual(parseUsageLine(JSON.stringify({ ...r, connectionLabel: 'caf\u00e9' }).replace('é', '\\u00e9')), { ...r, connectionLabel: 'café' });
  });

  it('refuses torn lines and records with a field out of shape', () => {
    const good = line();
    const bad = [
      '',
      good.slice(0, 60),
      good.slice(0, -1),
      `${good}x`,
      good.replace('"at":1790000000000', '"at":"1790000000000"'),
      good.replace('"at":1790000000000', '"at":01790000000000'),
      good.replace('"at":1790000000000', '"at":-1'),
      good.replace('"at":1790000000000', '"at":1.5'),
      good.replace('"at":1790000000000', '"at":17900000000000000000'),
      good.replace('"connectionId":"conn-1"', '"connectionId":""'),
      good.replace('"connectionId":"conn-1"', '"connectionId":5'),
      good.replace('"deployment":"gpt-4o"', `"deployment":"${'d'.repeat(257)}"`),
      good.replace('"connectionLabel":"Contoso (prod)"', `"connectionLabel":"${'l'.repeat(257)}"`),
      good.replace('"model":"gpt-4o"', '"model":""'),
      good.replace('"modelVersion":"2024-11-20"', '"modelVersion":3'),
      good.replace('"api":"chat"', '"api":"embeddings"'),
      good.replace('"route":"v1"', '"route":"other"'),
      good.replace('"source":"panel"', '"source":"cli"'),
      good.replace('"prompt":1200', '"prompt":-3'),
      good.replace('"cached":1024', '"cached":null'),
      good.replace('"completion":300', '"completion":3.5'),
      good.replace('"reasoning":0', '"reasoning":"0"'),
      good.replace('"tokens":{"prompt":1200,"cached":1024,"completion":300,"reasoning":0}', '"tokens":null'),
      good.replace('"firstTokenMs":412', '"firstTokenMs":-1'),
      good.replace('"totalMs":1830', '"totalMs":"1830"'),
      good.replace('{"kind":"ok"}', '{"kind":"fine"}'),
      good.replace('{"kind":"ok"}', '"ok"'),
      good.replace('{"kind":"ok"}', '{"kind":"rate_limited","waitMs":-2}'),
      good.replace('{"kind":"ok"}', '{"kind":"error","status":"500"}'),
      good.replace('"remainingRequests":299', '"remainingRequests":-299'),
      good.replace('"limitTokens":50000', '"limitTokens":"50000"'),
      good.replace(/,"rateLimit":\{[^}]*\}/, ',"rateLimit":7'),
      good.replace(/,"rateLimit":\{[^}]*\}/, ',"rateLimit":null'),
      good.replace('"remainingRequests":299,', '"remainingRequests":299,,'),
      good.replace('"limitTokens":50000}', '"limitTokens":50000,}'),
      good.replace('"remainingRequests":299,', '"remainingRequests":299'),
      good.replace('"source":"panel"', '"source":"panel","requests":1'),
      good.replace('"source":"panel"', '"source":"panel","requests":-4'),
      good.replace('"source":"panel"', '"source":"panel","requests":"9"'),
      good.replace('"connectionLabel":"Contoso (prod)"', '"connectionLabel":"raw\u0001control"'),
      '[1,2,3]',
      'null',
      '"text"',
    ];
    for (const l of bad) assert.equal(parseUsageLine(l), undefined, l);
  });

  it('drops a number its outcome does not carry', () => {
    const odd = [
      [line().replace('{"kind":"ok"}', '{"kind":"ok","status":500}'), { kind: 'ok' }],
      [line().replace('{"kind":"ok"}', '{"kind":"rate_limited","status":5}'), { kind: 'rate_limited', waitMs: undefined }],
      [line().replace('{"kind":"ok"}', '{"kind":"error","waitMs":5}'), { kind: 'error', status: undefined }],
    ] as const;
    for (const [l, outcome] of odd) assert.deepEqual(parseUsageLine(l)?.outcome, outcome, l);
  });

  it('reads token counts from a Chat Completions usage and from a Responses usage', () => {
    const chat = {
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 64 },
    };
    assert.deepEqual(tokensFromServiceUsage(chat), { prompt: 1200, cached: 1024, completion: 300, reasoning: 64 });
    const responses = {
      input_tokens: 900,
      output_tokens: 80,
      total_tokens: 980,
      input_tokens_details: { cached_tokens: 512 },
      output_tokens_details: { reasoning_tokens: 40 },
    };
    assert.deepEqual(tokensFromServiceUsage(responses), { prompt: 900, cached: 512, completion: 80, reasoning: 40 });
    assert.deepEqual(tokensFromServiceUsage({ prompt_tokens: 5 }), { prompt: 5 });
    assert.deepEqual(tokensFromServiceUsage({ completion_tokens: 7, input_tokens: 99 }), { completion: 7 });
    assert.deepEqual(tokensFromServiceUsage({ input_tokens: 3, output_tokens: 4, input_tokens_details: null }), { prompt: 3, completion: 4 });
    assert.deepEqual(tokensFromServiceUsage({ prompt_tokens: -1, completion_tokens: 'x' }), {});
    for (const none of [undefined, null, 'usage', 3]) assert.deepEqual(tokensFromServiceUsage(none), {});
    assert.deepEqual(
      createUsageRecord({ ...base, tokens: tokensFromServiceUsage(responses) }).tokens,
      { prompt: 900, cached: 512, completion: 80, reasoning: 40 },
    );
  });

  it('reads the rate-limit headers the service sent, and nothing from headers it did not', () => {
    // As a request's report reads them (chat/engine/report.ts) and its usage record keeps them.
    const rateLimitFromHeaders = (headers: Record<string, string | string[]>) => createUsageRecord({ ...base, rateLimit: rateLimitOf(headers) }).rateLimit;
    assert.deepEqual(
      rateLimitFromHeaders({ 'x-ratelimit-remaining-requests': '299', 'x-ratelimit-remaining-tokens': ['48700', '1'], 'x-ratelimit-limit-requests': ' 300 ', 'x-ratelimit-limit-tokens': '50000' }),
      { remainingRequests: 299, remainingTokens: 48_700, limitRequests: 300, limitTokens: 50_000 },
    );
    assert.deepEqual(rateLimitFromHeaders({ 'x-ratelimit-remaining-tokens': '12' }), { remainingRequests: undefined, remainingTokens: 12, limitRequests: undefined, limitTokens: undefined });
    assert.equal(rateLimitFromHeaders({}), undefined);
    assert.equal(
      rateLimitFromHeaders({ 'x-ratelimit-remaining-requests': 'many', 'x-ratelimit-remaining-tokens': '-1', 'x-ratelimit-limit-tokens': ' ', 'x-ratelimit-limit-requests': '' }),
      undefined,
    );
    assert.equal(rateLimitFromHeaders({ 'x-ratelimit-remaining-requests': [] }), undefined);
  });
});
