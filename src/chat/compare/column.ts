/**
 * One column of a compare round: what a deployment answered and what the user compares it by
 * (time to first token, total time, tokens per second, tokens, estimated cost, finish reason), or
 * the failure that stays in that column (a 429 with its wait, the content filter, a refused
 * parameter, anything else), said in words the user can act on.
 */
import { failureOf, tokensOf } from '../engine/report';
import type { RunResult } from '../engine/result';
import { costOf, priceFor, type PriceTable } from '../../usage/prices';
import type { ColumnFailure, ColumnResult } from './figures';

export type { ColumnFailure, ColumnFailureKind, ColumnResult } from './figures';

/** Completion tokens per second of generation; none when nothing timed or counted. */
export function tokensPerSecond(completion: number | undefined, firstTokenMs: number | undefined, totalMs: number): number | undefined {
  if (!completion || firstTokenMs === undefined) return undefined;
  const generating = totalMs - firstTokenMs;
  if (generating <= 0) return undefined;
  return (completion * 1000) / generating;
}

/** What the target says of its model, for a reply that names none and for its price. */
export interface Fallback {
  model?: string;
  version?: string;
}

export interface Timing {
  firstTokenMs?: number;
  totalMs: number;
}

/** The column of a reply that came (to its end, or stopped). */
export function answeredColumn(id: string, result: RunResult, timing: Timing, prices: PriceTable, fallback: Fallback): ColumnResult {
  const tokens = tokensOf(result.usage);
  const model = result.model ?? fallback.model;
  const column: ColumnResult = { id, outcome: result.stopped ? 'stopped' : 'ok', content: result.content, finishReason: result.finishReason, totalMs: timing.totalMs, notes: result.notes ?? [] };
  if (model) column.model = model;
  if (timing.firstTokenMs !== undefined) column.firstTokenMs = timing.firstTokenMs;
  if (tokens) {
    column.tokens = tokens;
    const tps = tokensPerSecond(tokens.completion, timing.firstTokenMs, timing.totalMs);
    if (tps !== undefined) column.tokensPerSecond = tps;
    // The answering model's dated name first, then the deployment's model at its version.
    const price = priceFor(prices, result.model) ?? priceFor(prices, fallback.model, fallback.version);
    if (price) column.costUsd = costOf(price, tokens);
  }
  return column;
}

const REFUSED_CODES = new Set(['unsupported_parameter', 'unsupported_value', 'invalid_value', 'OperationNotSupported']);

/** What went wrong, for the column: the service's own words, kept in that column. */
export function failureOfColumn(err: unknown, now = Date.now()): ColumnFailure {
  const end = failureOf(err);
  const e = (err ?? {}) as { code?: unknown; param?: unknown };
  const message = err instanceof Error ? err.message : String(err);
  const failure: ColumnFailure = { kind: 'failed', message };
  if (end.status !== undefined) failure.status = end.status;
  if (end.outcome === 'rate_limited') {
    failure.kind = 'rate_limited';
    if (end.retryAfterMs !== undefined) failure.retryAt = now + end.retryAfterMs;
  } else if (end.outcome === 'content_filter') failure.kind = 'content_filter';
  else if (end.status === 400 && (typeof e.param === 'string' || REFUSED_CODES.has(String(e.code)))) failure.kind = 'refused';
  return failure;
}

/** A failed column keeps what arrived before the failure (`content`). */
export function failedColumn(id: string, err: unknown, timing: Timing, fallback: { model?: string }, content = ''): ColumnResult {
  const column: ColumnResult = { id, outcome: 'failed', content, finishReason: null, totalMs: timing.totalMs, notes: [], failure: failureOfColumn(err) };
  if (fallback.model) column.model = fallback.model;
  if (timing.firstTokenMs !== undefined) column.firstTokenMs = timing.firstTokenMs;
  return column;
}
