/**
 * The runner's report of one request as the usage log keeps it. No `vscode` import: tested in
 * plain Node, and bundled with the usage log (dist/usage-log.js).
 */
import type { RequestReport } from './report';
import { createUsageRecord, type UsageOutcome, type UsageRecord } from '../../usage/record';

function outcomeOf(r: RequestReport): UsageOutcome {
  switch (r.outcome) {
    case 'rate_limited':
      return { kind: 'rate_limited', waitMs: r.retryAfterMs };
    case 'failed':
      return { kind: 'error', status: r.status };
    default:
      return { kind: r.outcome };
  }
}

/**
 * The record of a report. Built field by field by `createUsageRecord`: whatever else a report
 * might carry one day never reaches the disk. `connectionLabel` names the connection as the
 * sidebar does (the report has its id only).
 */
export function usageRecordOf(r: RequestReport, connectionLabel: string): UsageRecord {
  return createUsageRecord({
    at: r.startedAt,
    connectionId: r.connection ?? '?',
    connectionLabel,
    deployment: r.deployment,
    model: r.model,
    api: r.api,
    route: r.route,
    source: r.source,
    tokens: r.tokens,
    firstTokenMs: r.firstTokenMs,
    totalMs: r.totalMs,
    outcome: outcomeOf(r),
    rateLimit: r.rateLimit,
  });
}
