/**
 * The usage view's logic outside VS Code: the runner's report as the log keeps it, today's
 * totals for the status bar, and the page's message protocol checked on both sides.
 */
import assert from 'node:assert/strict';
import type { RequestReport } from '../../src/chat/engine/report';
import { aggregateUsage } from '../../src/usage/aggregate';
import { usageRecordOf } from '../../src/chat/engine/usageRecord';
import { compactCount, dollars, statusText, todayTotals } from '../../src/vscode/usage/todayTotals';
import { formatPercentiles, isUsageSummary, parseUsageHostMessage, parseUsageViewMessage } from '../../src/webview/usage/protocol';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const UTC = () => 0;

function report(over: Partial<RequestReport> = {}): RequestReport {
  return {
    source: 'panel', connection: 'c1', deployment: 'gpt-4o', model: 'gpt-4o-2024-11-20', api: 'chat', route: 'v1', startedAt: NOW - 1000, attempt: 1,
    tokens: { prompt: 1000, cached: 200, completion: 500, reasoning: 0 }, firstTokenMs: 120, totalMs: 900, outcome: 'ok', rateLimit: { remainingRequests: 99, remainingTokens: 9000 },
    ...over,
  };
}

const summaryOf = (reports: RequestReport[]) => aggregateUsage(reports.map((r) => usageRecordOf(r, 'My resource')), { now: NOW, zone: UTC });

describe('usage view: reports as records', () => {
  it('keeps who, what, how long and how it ended; a 429 with its wait, a failure with its status', () => {
    const r = usageRecordOf(report(), 'My resource');
    assert.deepEqual(
      [r.at, r.connectionId, r.connectionLabel, r.deployment, r.model, r.source, r.tokens, r.firstTokenMs, r.totalMs, r.outcome, r.rateLimit],
      [
        NOW - 1000, 'c1', 'My resource', 'gpt-4o', 'gpt-4o-2024-11-20', 'panel', { prompt: 1000, cached: 200, completion: 500, reasoning: 0 }, 120, 900, { kind: 'ok' },
        { remainingRequests: 99, remainingTokens: 9000, limitRequests: undefined, limitTokens: undefined },
      ],
    );
    assert.deepEqual(usageRecordOf(report({ outcome: 'rate_limited', status: 429, retryAfterMs: 3000, tokens: undefined }), '').outcome, { kind: 'rate_limited', waitMs: 3000 });
    assert.deepEqual(usageRecordOf(report({ outcome: 'failed', status: 400 }), '').outcome, { kind: 'error', status: 400 });
    assert.deepEqual(usageRecordOf(report({ outcome: 'content_filter' }), '').outcome, { kind: 'content_filter' });
    assert.deepEqual(usageRecordOf(report({ source: 'vscode-chat', tokens: undefined }), '').tokens, { prompt: 0, cached: 0, completion: 0, reasoning: 0 });
  });

  it('never carries anything else a report might hold (a prompt, a key) to the disk', () => {
    const leaky = { ...report(), prompt: 'my secret plan', apiKey: 'sk-123', headers: { 'api-key': 'sk-123' } } as RequestReport;
    const line = JSON.stringify(usageRecordOf(leaky, 'x'));
    assert.ok(!line.includes('secret plan') && !line.includes('sk-123'), line);
  });
});

describe('usage view: the status bar\'s totals', () => {
  it('sums today across deployments and sources; cost from the priced ones, unpriced ones counted apart', async () => {
    const s = await summaryOf([
      report(),
      report({ source: 'vscode-chat', deployment: 'mini', model: 'gpt-4o-mini', tokens: { prompt: 100, cached: 0, completion: 50, reasoning: 0 } }),
      report({ deployment: 'mystery', model: 'my-finetune', tokens: { prompt: 10, cached: 0, completion: 5, reasoning: 0 } }),
      // Yesterday: not today's.
      report({ startedAt: NOW - 86_400_000 }),
    ]);
    const t = todayTotals(s);
    assert.deepEqual([t.requests, t.tokensIn, t.tokensOut, t.unpriced], [3, 1110, 555, 1]);
    // gpt-4o: 800 × 2.5 + 200 × 1.25 + 500 × 10 per million; gpt-4o-mini: 100 × 0.15 + 50 × 0.6.
    assert.ok(Math.abs(t.cost! - (800 * 2.5 + 200 * 1.25 + 500 * 10 + 100 * 0.15 + 50 * 0.6) / 1e6) < 1e-12, String(t.cost));
    assert.equal(statusText(t), '1,665 tokens · <$0.01');
    assert.equal(statusText({ ...t, cost: 1.234 }), '1,665 tokens · ~$1.23');
  });

  it('says tokens only when no model of the day has a price, and reads large counts compactly', async () => {
    const t = todayTotals(await summaryOf([report({ model: 'my-finetune', tokens: { prompt: 12_000, cached: 0, completion: 400, reasoning: 0 } })]));
    assert.equal(t.cost, undefined);
    assert.equal(statusText(t), '12.4k tokens');
    assert.deepEqual([compactCount(999), compactCount(123_456), compactCount(2_500_000)], ['999', '123k', '2.5M']);
    assert.deepEqual([dollars(0), dollars(0.004), dollars(1.234)], ['$0.00', '<$0.01', '$1.23']);
  });
});

describe('usage view: the page protocol', () => {
  it('a real summary passes the page\'s check, with its filter', async () => {
    const s = await summaryOf([report(), report({ source: 'vscode-chat', outcome: 'rate_limited', tokens: undefined })]);
    const msg = { type: 'summary', summary: s, filter: { connection: 'c1', source: 'vscode-chat' }, limits: [{ connectionId: 'c1', deployment: 'gpt-4o', tokensPerMinute: 50_000 }] };
    assert.deepEqual(parseUsageHostMessage(JSON.parse(JSON.stringify(msg))), JSON.parse(JSON.stringify(msg)));
    assert.equal(s.deployments[0].windows.today.rateLimited, 1);
  });

  it('a summary with a bad number, a missing day or a foreign shape is dropped, not half shown', async () => {
    const good = JSON.parse(JSON.stringify(await summaryOf([report()])));
    const broken = [
      (s: any) => (s.deployments[0].windows.today.requests = -1),
      (s: any) => (s.deployments[0].windows.week.promptTokens = '1000'),
      (s: any) => s.deployments[0].daily.pop(),
      (s: any) => (s.deployments[0].windows.month.totalMs = { p50: 1 }),
      (s: any) => (s.deployments[0].headroom = { remainingRequests: 1 }),
      (s: any) => (s.days[0] = '<img src=x>'),
      (s: any) => (s.connections = [{ id: 1, label: 'x' }]),
      (s: any) => delete s.deployments[0].windows.today,
    ];
    assert.ok(isUsageSummary(good));
    for (const [i, breakIt] of broken.entries()) {
      const s: unknown = structuredClone(good);
      breakIt(s);
      assert.equal(parseUsageHostMessage({ type: 'summary', summary: s, filter: { connection: '', source: '' } }), undefined, `change ${i}`);
    }
    assert.equal(parseUsageHostMessage({ type: 'summary', summary: good, filter: { connection: '', source: 'elsewhere' } }), undefined);
    assert.deepEqual(parseUsageHostMessage({ type: 'error', text: 'could not read' }), { type: 'error', text: 'could not read' });
    assert.equal(parseUsageHostMessage({ type: 'error', text: 42 }), undefined);
  });

  it('the page may ask for a filter, an export or the prices, nothing else', () => {
    assert.deepEqual(parseUsageViewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseUsageViewMessage({ type: 'exportCsv', path: '/etc/passwd' }), { type: 'exportCsv' });
    assert.deepEqual(parseUsageViewMessage({ type: 'editPrices' }), { type: 'editPrices' });
    assert.deepEqual(parseUsageViewMessage({ type: 'filter', filter: { connection: 'c1', source: 'panel', extra: 1 } }), { type: 'filter', filter: { connection: 'c1', source: 'panel' } });
    for (const bad of [{ type: 'filter', filter: { connection: 'c1', source: 'everything' } }, { type: 'filter', filter: { source: '' } }, { type: 'clear' }, null, 'ready', { type: 'filter' }]) {
      assert.equal(parseUsageViewMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('times read as the table shows them', () => {
    assert.equal(formatPercentiles({ p50: 120, p95: 1530 }), '120 ms / 1.53 s');
    assert.equal(formatPercentiles(undefined), '–');
  });
});
