/**
 * Audio tokens where the service reports them (#39 point 1): an audio model's usage
 * (prompt_tokens_details.audio_tokens, completion_tokens_details.audio_tokens) read into the
 * request's counts, kept in its usage record (and read back from the log), summed apart in the
 * usage view and its CSV, and said apart in Compare's column; a request without audio keeps no field for it.
 */
import assert from 'node:assert/strict';
import { tokensText } from '../../src/chat/compare/figures';
import { tokensOf, type RequestReport } from '../../src/chat/engine/report';
import { usageRecordOf } from '../../src/chat/engine/usageRecord';
import { aggregateUsage } from '../../src/usage/aggregate';
import { usageTableCsv } from '../../src/usage/csv';
import { tokensFromServiceUsage, validateUsageRecord } from '../../src/usage/record';
import { isUsageSummary } from '../../src/webview/usage/protocol';

const NOW = Date.parse('2026-11-24T12:00:00Z');
/** Chat Completions' usage of an audio model, as the service sends it. */
const AUDIO_USAGE = {
  prompt_tokens: 120,
  completion_tokens: 90,
  total_tokens: 210,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 40 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 75 },
};

const report = (usage: typeof AUDIO_USAGE | { prompt_tokens: number; completion_tokens: number; total_tokens: number }): RequestReport => ({
  ...{ source: 'panel', connection: 'c1', deployment: 'audio', model: 'gpt-4o-audio-preview', api: 'chat', route: 'v1', startedAt: NOW - 1000, attempt: 1 },
  ...{ tokens: tokensOf(usage), totalMs: 900, outcome: 'ok', rateLimit: {} },
});

describe('audio tokens, apart', () => {
  it('are read from the usage, kept in the record and read back; none kept when there are none', () => {
    assert.deepEqual(tokensOf(AUDIO_USAGE), { prompt: 120, cached: 0, completion: 90, reasoning: 0, audioIn: 40, audioOut: 75 });
    assert.deepEqual(tokensFromServiceUsage(AUDIO_USAGE), { prompt: 120, cached: 0, completion: 90, reasoning: 0, audioIn: 40, audioOut: 75 });
    const record = usageRecordOf(report(AUDIO_USAGE), 'Mine');
    assert.deepEqual([record.tokens.audioIn, record.tokens.audioOut], [40, 75]);
    assert.deepEqual(validateUsageRecord(JSON.parse(JSON.stringify(record)))?.tokens, record.tokens);
    assert.equal(validateUsageRecord({ ...record, tokens: { ...record.tokens, audioIn: -1 } }), undefined);
    const plain = usageRecordOf(report({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }), 'Mine');
    assert.deepEqual(Object.keys(plain.tokens), ['prompt', 'cached', 'completion', 'reasoning']);
  });

  it('are summed apart in the usage view and its CSV, and said apart in a Compare column', async () => {
    const records = [report(AUDIO_USAGE), report(AUDIO_USAGE), report({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })].map((r) => usageRecordOf(r, 'Mine'));
    const summary = await aggregateUsage(records, { now: NOW, zone: () => 0 });
    const today = summary.deployments[0].windows.today;
    assert.deepEqual([today.promptTokens, today.audioInTokens, today.completionTokens, today.audioOutTokens], [245, 80, 182, 150]);
    assert.ok(isUsageSummary(summary));
    const [head, row] = usageTableCsv(summary).split('\r\n');
    const cells = head.split(',');
    const at = (name: string) => row.split(',')[cells.indexOf(name)];
    assert.deepEqual([at('audio input tokens'), at('audio output tokens')], ['80', '150']);
    assert.equal(tokensText({ tokens: tokensOf(AUDIO_USAGE) }), '120 in, 90 out, 40 audio in, 75 audio out');
  });
});
