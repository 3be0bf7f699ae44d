/** Usage records for the usage tests: a panel request to gpt-4o an hour before NOW, changed by `over`. */
import { createUsageRecord, type UsageInput, type UsageRecord } from '../../src/usage/record';

/** Noon UTC on a Friday: the day buckets of the tests are counted from here. */
export const NOW = Date.parse('2026-11-20T12:00:00Z');

export const usageRecord = (over: Partial<UsageInput> = {}): UsageRecord =>
  createUsageRecord({
    at: NOW - 3_600_000,
    connectionId: 'c1',
    connectionLabel: 'Emulator',
    deployment: 'gpt-4o',
    model: 'gpt-4o',
    modelVersion: '2024-11-20',
    api: 'chat',
    route: 'v1',
    source: 'panel',
    tokens: { prompt: 1000, cached: 400, completion: 500, reasoning: 100 },
    firstTokenMs: 300,
    totalMs: 1000,
    outcome: { kind: 'ok' },
    ...over,
  });
