/**
 * One compare round: the same prompt to 2–4 deployments of any connections, through the one chat
 * runner (which picks each model's API), started together: all in one synchronous loop, so they
 * leave within a few milliseconds of each other (measured by `npm run bench`).
 * A column's failure stays in its column; the round's signal (Stop) stops every column.
 */
import * as l10n from '@vscode/l10n';
import { performance } from 'node:perf_hooks';
import type { ChatRoute } from '../../service/types';
import type { ChatApi } from '../modelProfile';
import type { SamplingOptions } from '../engine/chatRequest';
import type { NeutralMessage } from '../engine/messages';
import { COMPARE_RUN } from '../engine/options';
import type { RequestReport } from '../engine/report';
import type { RunResult } from '../engine/result';
import { runChat, type RunRequest } from '../engine/runner';
import type { StreamingClient } from '../engine/streams';
import type { ApiMemory } from '../apiMemory';
import { DEFAULT_PRICES, type PriceTable } from '../../usage/prices';
import { answeredColumn, failedColumn, type ColumnResult } from './column';
import { MAX_COLUMNS, MIN_COLUMNS } from './limits';

export { MAX_COLUMNS, MIN_COLUMNS };

export interface CompareTarget {
  /** Unique within the compare (e.g. connection id and deployment name). */
  id: string;
  client: StreamingClient;
  connection?: string;
  deployment: string;
  model?: string;
  version?: string;
  route?: ChatRoute;
  apiVersion?: string;
  /** The API the user chose for this deployment, if any; else the runner decides. */
  api?: ChatApi;
}

export interface ComparePrompt {
  /** The system prompt (if any), attachments and the user's prompt, as neutral messages. */
  messages: readonly NeutralMessage[];
  sampling: SamplingOptions;
}

export interface CompareListener {
  onText?: (id: string, text: string) => void;
  /** A column came to its end (answered, stopped or failed), before the others maybe. */
  onColumn?: (column: ColumnResult) => void;
  /** Every request's usage report (source: compare), for the usage log. */
  onReport?: (report: RequestReport) => void;
}

/** A narrow observer of one column's request (its trace): wraps the request's hooks, hears how it ended. */
export interface ColumnObserver {
  /** Named on the column's result (ColumnResult.traceId). */
  traceId: string;
  observe(request: RunRequest): RunRequest;
  end(outcome: { result?: RunResult; error?: unknown }): void;
}

export interface CompareOptions extends CompareListener {
  /** One observer per column and round, made when its request starts (none: nothing observed). */
  observe?: (target: CompareTarget) => ColumnObserver | undefined;
  signal: AbortSignal;
  prices?: PriceTable;
  apiMemory?: ApiMemory;
}

export interface CompareRound {
  /** In the targets' order. */
  columns: ColumnResult[];
}

/** Refuses a compare of fewer than 2 or more than 4 deployments, or the same one twice. */
export function checkTargets(targets: readonly Pick<CompareTarget, 'id'>[]): void {
  if (targets.length < MIN_COLUMNS || targets.length > MAX_COLUMNS) {
    throw new RangeError(l10n.t('Compare takes {0} to {1} deployments; {2} were picked.', MIN_COLUMNS, MAX_COLUMNS, targets.length));
  }
  if (new Set(targets.map((t) => t.id)).size !== targets.length) throw new RangeError(l10n.t('The same deployment was picked twice: pick different deployments.'));
}

export async function runCompareRound(targets: readonly CompareTarget[], prompt: ComparePrompt, options: CompareOptions): Promise<CompareRound> {
  checkTargets(targets);
  const prices = options.prices ?? DEFAULT_PRICES;
  // Nothing awaits in this loop: every request is started in this one turn.
  const runs = targets.map((target) => {
    const fallback = { model: target.model, version: target.version };
    const t0 = performance.now();
    let first: number | undefined;
    let content = '';
    const timing = () => ({ totalMs: performance.now() - t0, ...(first !== undefined ? { firstTokenMs: first - t0 } : {}) });
    const observer = options.observe?.(target);
    const finish = (column: ColumnResult, outcome?: { result?: RunResult; error?: unknown }) => {
      if (observer) {
        observer.end(outcome ?? {});
        column.traceId = observer.traceId;
      }
      options.onColumn?.(column);
      return column;
    };
    const onText = (text: string) => {
      first ??= performance.now();
      content += text;
      options.onText?.(target.id, text);
    };
    const request: RunRequest = {
      client: target.client,
      connection: target.connection,
      deployment: target.deployment,
      model: target.model,
      api: target.api,
      route: target.route,
      apiVersion: target.apiVersion,
      messages: prompt.messages,
      sampling: prompt.sampling,
      apiMemory: options.apiMemory,
      signal: options.signal,
      onText,
      onReport: options.onReport,
    };
    return runChat(observer ? observer.observe(request) : request, COMPARE_RUN).then(
      (result) => finish(answeredColumn(target.id, result, timing(), prices, fallback), { result }),
      (error: unknown) => finish(failedColumn(target.id, error, timing(), fallback, content), { error }),
    );
  });
  return { columns: await Promise.all(runs) };
}
