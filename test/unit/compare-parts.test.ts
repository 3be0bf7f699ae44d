/**
 * The compare view's plain pieces: a column's figures and failures, medians and ranges, and the
 * Markdown export a user pastes elsewhere.
 */
import assert from 'node:assert/strict';
import { answeredColumn, failedColumn, failureOfColumn, tokensPerSecond, type ColumnResult } from '../../src/chat/compare/column';
import { cell, compareMarkdown, costText, dollars, endText, ms, perSecond, tokensText } from '../../src/chat/compare/markdown';
import { median, statOf, summarize } from '../../src/chat/compare/summary';
import { ServiceError } from '../../src/service/errors';
import { DEFAULT_PRICES } from '../../src/usage/prices';

const usage = {
  prompt_tokens: 1000,
  completion_tokens: 500,
  total_tokens: 1500,
  prompt_tokens_details: { cached_tokens: 200 },
  completion_tokens_details: { reasoning_tokens: 100 },
};
const result = { content: 'Hi', finishReason: 'stop', latencyMs: 0, stopped: false, api: 'chat' as const, usage };

describe('compare: a column', () => {
  it('tokens per second count the time after the first token only', () => {
    assert.equal(tokensPerSecond(100, 200, 1200), 100);
    assert.equal(tokensPerSecond(100, undefined, 1200), undefined);
    assert.equal(tokensPerSecond(0, 100, 1200), undefined);
    assert.equal(tokensPerSecond(undefined, 100, 1200), undefined);
    assert.equal(tokensPerSecond(100, 1200, 1200), undefined);
  });

  it('an answer: figures, the priced model by its dated name, else by the deployment model; none without a price', () => {
    const c = answeredColumn('a', { ...result, model: 'gpt-4o-2024-11-20', notes: ['n'] }, { firstTokenMs: 100, totalMs: 600 }, DEFAULT_PRICES, { model: 'house' });
    assert.deepEqual(c, {
      id: 'a', outcome: 'ok', content: 'Hi', finishReason: 'stop', model: 'gpt-4o-2024-11-20', firstTokenMs: 100, totalMs: 600, notes: ['n'],
      tokens: { prompt: 1000, cached: 200, completion: 500, reasoning: 100 }, tokensPerSecond: 1000, costUsd: (800 * 2.5 + 200 * 1.25 + 500 * 10) / 1e6,
    });
    const byDeployment = answeredColumn('b', { ...result, model: 'house-2025' }, { totalMs: 10 }, DEFAULT_PRICES, { model: 'gpt-4o-mini', version: '2024-07-18' });
    assert.equal(byDeployment.costUsd, (800 * 0.15 + 200 * 0.075 + 500 * 0.6) / 1e6);
    assert.equal(byDeployment.model, 'house-2025');
    assert.equal(byDeployment.firstTokenMs, undefined);
    assert.equal(byDeployment.tokensPerSecond, undefined);
    const unpriced = answeredColumn('c', { ...result, stopped: true, usage: undefined }, { totalMs: 5 }, DEFAULT_PRICES, { model: 'gpt-4o' });
    assert.deepEqual([unpriced.outcome, unpriced.tokens, unpriced.costUsd, unpriced.model, unpriced.notes], ['stopped', undefined, undefined, 'gpt-4o', []]);
    const bare = answeredColumn('e', { ...result, usage: { ...usage, completion_tokens: 0 } }, { totalMs: 5 }, DEFAULT_PRICES, {});
    assert.ok(!('model' in bare) && !('firstTokenMs' in bare) && !('tokensPerSecond' in bare), JSON.stringify(bare));
    const none = answeredColumn('d', result, { totalMs: 5 }, DEFAULT_PRICES, { model: 'house' });
    assert.equal(none.costUsd, undefined);
    assert.ok(none.tokens);
  });

  it('failures by kind: 429 with when it ends, content filter, refused parameter, anything else', () => {
    const now = 1_000_000;
    const rate = new ServiceError({ kind: 'http', host: 'h', status: 429, retryAfterMs: 7000 });
    assert.deepEqual(failureOfColumn(rate, now), { kind: 'rate_limited', message: rate.message, status: 429, retryAt: now + 7000 });
    assert.equal(failureOfColumn(new ServiceError({ kind: 'http', host: 'h', status: 429 }), now).retryAt, undefined);
    assert.equal(failureOfColumn(new ServiceError({ kind: 'http', host: 'h', status: 400, code: 'content_filter' })).kind, 'content_filter');
    assert.equal(failureOfColumn(new ServiceError({ kind: 'http', host: 'h', status: 400, param: 'x' })).kind, 'refused');
    assert.equal(failureOfColumn(new ServiceError({ kind: 'http', host: 'h', status: 400, code: 'unsupported_value' })).kind, 'refused');
    assert.equal(failureOfColumn(new ServiceError({ kind: 'http', host: 'h', status: 400, code: 'other' })).kind, 'failed');
    assert.equal(failureOfColumn(new ServiceError({ kind: 'http', host: 'h', status: 500, param: 'x' })).kind, 'failed');
    assert.deepEqual(failureOfColumn('plain words'), { kind: 'failed', message: 'plain words' });
    const failed = failedColumn('z', new Error('boom'), { firstTokenMs: 3, totalMs: 9 }, { model: 'm' }, 'part');
    assert.deepEqual(failed, { id: 'z', outcome: 'failed', content: 'part', finishReason: null, totalMs: 9, notes: [], failure: { kind: 'failed', message: 'boom' }, model: 'm', firstTokenMs: 3 });
    assert.deepEqual(failedColumn('y', new Error('b'), { totalMs: 1 }, {}).content, '');
    const plain = failedColumn('y', new Error('b'), { totalMs: 1 }, {});
    assert.ok(!('model' in plain) && !('firstTokenMs' in plain), JSON.stringify(plain));
  });
});

describe('compare: medians and where requests went', () => {
  it('median, range, and none for nothing', () => {
    assert.equal(median([]), undefined);
    assert.equal(median([5]), 5);
    assert.equal(median([9, 1, 5]), 5);
    assert.equal(median([10, 1, 4, 2]), 3);
    assert.deepEqual(statOf([3, undefined, 1, 2]), { median: 2, min: 1, max: 3 });
    assert.equal(statOf([undefined]), undefined);
  });

  it('summaries count only answered rounds', () => {
    const col = (id: string, outcome: ColumnResult['outcome'], totalMs: number): ColumnResult =>
      ({ id, outcome, content: '', finishReason: null, totalMs, notes: [], tokens: { prompt: 1, cached: 0, completion: totalMs, reasoning: 0 } });
    const rounds = [{ columns: [col('a', 'ok', 10), col('b', 'failed', 1)] }, { columns: [col('a', 'ok', 30), col('b', 'ok', 5)] }, { columns: [col('a', 'stopped', 99), col('b', 'ok', 7)] }];
    const [a, b] = summarize(['a', 'b'], rounds);
    assert.deepEqual(a, { id: 'a', answered: 2, rounds: 3, totalMs: { median: 20, min: 10, max: 30 }, completionTokens: { median: 20, min: 10, max: 30 } });
    assert.deepEqual(b.totalMs, { median: 6, min: 5, max: 7 });
    assert.equal(summarize(['c'], rounds)[0].answered, 0);
  });
});

describe('compare: Markdown export', () => {
  it('formats figures, always says estimate, and says how each column ended', () => {
    assert.equal(cell('a|b\\c\n  d'), 'a\\|b\\\\c d');
    assert.deepEqual([ms(undefined), ms(12.6), perSecond(undefined), perSecond(33.333)], ['–', '13 ms', '–', '33.3/s']);
    assert.deepEqual([dollars(undefined), dollars(0.001234), dollars(0.5)], ['no price', '$0.001234 (estimate)', '$0.5000 (estimate)']);
    assert.equal(tokensText({}), '–');
    assert.deepEqual([costText({}), costText({ tokens: { prompt: 1, cached: 0, completion: 1, reasoning: 0 } })], ['–', 'no price']);
    assert.equal(tokensText({ tokens: { prompt: 3, cached: 0, completion: 4, reasoning: 0 } }), '3 in, 4 out');
    assert.equal(tokensText({ tokens: { prompt: 3, cached: 0, completion: 4, reasoning: 2 } }), '3 in, 4 out, 2 reasoning');
    assert.equal(endText({ outcome: 'failed', finishReason: null, failure: { kind: 'rate_limited', message: '', status: 429 } }), 'rate_limited (429)');
    assert.equal(endText({ outcome: 'failed', finishReason: null, failure: { kind: 'failed', message: '' } }), 'failed');
    assert.equal(endText({ outcome: 'stopped', finishReason: 'stop' }), 'stopped');
    assert.equal(endText({ outcome: 'ok', finishReason: 'length' }), 'length');
    assert.equal(endText({ outcome: 'ok', finishReason: null }), '–');
  });

  it('the table, the medians after Run again, and each reply or failure under its deployment', () => {
    const ok: ColumnResult = {
      id: 'a',
      outcome: 'ok',
      content: '# Reply | one',
      finishReason: 'stop',
      model: 'gpt-4o',
      firstTokenMs: 50,
      totalMs: 400,
      tokensPerSecond: 20,
      tokens: { prompt: 10, cached: 0, completion: 7, reasoning: 0 },
      costUsd: 0.5,
      notes: ['Temperature was left out.'],
    };
    const failed: ColumnResult = { id: 'b', outcome: 'failed', content: '', finishReason: null, totalMs: 9, notes: [], failure: { kind: 'content_filter', message: 'Filtered.', status: 400 } };
    const md = compareMarkdown('Say hi', [{ label: 'emu / a|x', column: ok }, { label: 'emu / b', column: failed }], new Date(0));
    assert.equal(
      md,
      [
        '# Compare: 2 deployments', '', '_1970-01-01T00:00:00.000Z_', '', '## Prompt', '', 'Say hi', '', '## Results', '',
        '| Deployment | Model | First token | Total | Tokens/s | Tokens | Cost | Finish |', '|---|---|---|---|---|---|---|---|',
        '| emu / a\\|x | gpt-4o | 50 ms | 400 ms | 20.0/s | 10 in, 7 out | $0.5000 (estimate) | stop |',
        '| emu / b | – | – | 9 ms | – | – | – | content_filter (400) |',
        '', '## emu / a|x', '', '# Reply | one', '', '> Temperature was left out.', '', '## emu / b', '', '> Filtered.', '',
      ].join('\n'),
    );
    const summary = { id: 'a', answered: 2, rounds: 3, totalMs: { median: 400, min: 300, max: 500 }, costUsd: { median: 0.5, min: 0.5, max: 0.5 } };
    const withMedians = compareMarkdown('p', [{ label: 'A', column: ok, summary }, { label: 'B', column: failed, summary: { id: 'b', answered: 0, rounds: 3 } }]);
    assert.ok(
      withMedians.includes(
        '## Medians over 3 runs (range)\n\n' +
          '| Deployment | Answered | First token | Total | Tokens/s | Cost |\n' +
          '|---|---|---|---|---|---|\n' +
          '| A | 2/3 | – | 400 ms (300 ms–500 ms) | – | $0.5000 ($0.5000–$0.5000) estimate |\n' +
          '| B | 0/3 | – | – | – | no price |',
      ),
      withMedians,
    );
    assert.ok(!compareMarkdown('p', [{ label: 'A', column: ok, summary: { ...summary, rounds: 1 } }]).includes('Medians'));
  });
});
