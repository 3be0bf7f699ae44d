/**
 * The one message protocol between the usage page and the extension. Both sides import this file
 * and validate what they receive with it: a message that does not parse is dropped. It carries
 * names, counts, times and estimated dollars: never a prompt, a reply or a key.
 */
import * as l10n from '@vscode/l10n';
import type { DailyUsage, DeploymentUsage, Percentiles, UsageSummary, WindowStats } from '../../usage/aggregate';
import type { UsageSource } from '../../usage/record';
import { isObj, isText } from '../../service/shapes';
import type { DeploymentLimits } from './headroom';

export const SOURCES: readonly UsageSource[] = ['panel', 'vscode-chat', 'compare', 'batch', 'inline'];
/** A source as the filter names it, in the display language. */
export function sourceLabel(s: UsageSource): string {
  const labels: Record<UsageSource, string> = {
    panel: l10n.t('Chat panel'),
    'vscode-chat': l10n.t('VS Code chat'),
    compare: l10n.t({ message: 'Compare', comment: ['Where a request came from: the compare view'] }),
    batch: l10n.t('Batch'),
    inline: l10n.t({ message: 'Inline suggestions', comment: ['Where a request came from: ghost text in the editor'] }),
  };
  return labels[s];
}

/** What the user filters by: '' is "all". */
export interface UsageFilterChoice {
  connection: string;
  source: '' | UsageSource;
}

/** Extension → page. */
export type UsageHostMessage =
  /** `limits`: the deployments' rate limits from Resource Manager, those the catalog knows. */
  | { type: 'summary'; summary: UsageSummary; filter: UsageFilterChoice; limits: DeploymentLimits[] }
  /** The log could not be read: what happened and what to do. */
  | { type: 'error'; text: string };

/** Page → extension. */
export type UsageViewMessage =
  | { type: 'ready' }
  | { type: 'filter'; filter: UsageFilterChoice }
  | { type: 'exportCsv' }
  | { type: 'editPrices' };

const isStr = (v: unknown, max = 256): v is string => isText(v, max);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);
const isDay = (v: unknown) => isStr(v, 10) && /^\d{4}-\d{2}-\d{2}$/.test(v);
/** More than a year of chart days or 10,000 deployments is not a summary of ours. */
const MAX_ITEMS = 10_000;
const isList = (v: unknown, check: (x: unknown) => boolean, max = MAX_ITEMS): v is unknown[] => Array.isArray(v) && v.length <= max && v.every(check);

const isPercentiles = (v: unknown) => isObj(v) && isCount(v.p50) && isCount(v.p95);

const STAT_COUNTS: ReadonlyArray<keyof WindowStats> = [
  ...['requests', 'promptTokens', 'cachedTokens', 'completionTokens', 'reasoningTokens', 'audioInTokens', 'audioOutTokens'] as const,
  ...['rateLimited', 'errors', 'unpricedRequests'] as const,
];
function isWindow(v: unknown): v is WindowStats {
  if (!isObj(v) || !STAT_COUNTS.every((k) => isCount(v[k]))) return false;
  return optional(v.firstTokenMs, isPercentiles) && optional(v.totalMs, isPercentiles) && optional(v.cost, isCount);
}

const isDaily = (v: unknown): v is DailyUsage => isObj(v) && isCount(v.tokensIn) && isCount(v.tokensOut) && optional(v.cost, isCount);

function isHeadroom(v: unknown): boolean {
  if (!isObj(v) || !isCount(v.at)) return false;
  return ['remainingRequests', 'remainingTokens', 'limitRequests', 'limitTokens'].every((k) => optional(v[k], isCount));
}

const isAnsweredStats = (v: unknown) => isObj(v) && ['requests', 'promptTokens', 'cachedTokens', 'completionTokens'].every((k) => isCount(v[k])) && optional(v.cost, isCount);
const isAnswered = (v: unknown) => isObj(v) && isStr(v.model) && isObj(v.windows) && ['today', 'week', 'month'].every((w) => isAnsweredStats((v.windows as Record<string, unknown>)[w]));

function isDeployment(v: unknown, days: number): v is DeploymentUsage {
  if (!isObj(v) || !isStr(v.connectionId) || !isStr(v.connectionLabel) || !isStr(v.deployment)) return false;
  if (!optional(v.model, isStr) || !optional(v.modelVersion, isStr) || !optional(v.headroom, isHeadroom)) return false;
  const w = v.windows;
  if (!isObj(w) || !isWindow(w.today) || !isWindow(w.week) || !isWindow(w.month)) return false;
  return isList(v.daily, isDaily) && v.daily.length === days && optional(v.answeredBy, (a) => isList(a, isAnswered, 100));
}

/** A summary as the aggregator makes it: every number a count, one daily entry per chart day. */
export function isUsageSummary(v: unknown): v is UsageSummary {
  if (!isObj(v) || !isList(v.days, isDay, 366) || !isCount(v.records) || !isCount(v.skipped)) return false;
  const days = v.days.length;
  return isList(v.deployments, (d) => isDeployment(d, days)) && isList(v.connections, (c) => isObj(c) && isStr(c.id) && isStr(c.label));
}

const isLimits = (v: unknown): v is DeploymentLimits =>
  isObj(v) && isStr(v.connectionId) && isStr(v.deployment) && optional(v.requestsPerMinute, isCount) && optional(v.tokensPerMinute, isCount);

function parseFilter(v: unknown): UsageFilterChoice | undefined {
  if (!isObj(v) || !isStr(v.connection)) return undefined;
  const source = v.source === '' || SOURCES.includes(v.source as UsageSource) ? (v.source as UsageFilterChoice['source']) : undefined;
  return source === undefined ? undefined : { connection: v.connection, source };
}

/** Validates a message from the page. */
export function parseUsageViewMessage(v: unknown): UsageViewMessage | undefined {
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'ready':
    case 'exportCsv':
    case 'editPrices':
      return { type: v.type };
    case 'filter': {
      const filter = parseFilter(v.filter);
      return filter && { type: 'filter', filter };
    }
  }
  return undefined;
}

/** Validates a message from the extension (the page trusts nothing it did not check). */
export function parseUsageHostMessage(v: unknown): UsageHostMessage | undefined {
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'summary': {
      const filter = parseFilter(v.filter);
      const limits = v.limits ?? [];
      if (!filter || !isUsageSummary(v.summary) || !isList(limits, isLimits)) return undefined;
      return { type: 'summary', summary: v.summary, filter, limits: limits as DeploymentLimits[] };
    }
    case 'error':
      return isStr(v.text, 2000) ? { type: 'error', text: v.text } : undefined;
  }
  return undefined;
}

/** "1,234 ms" → "1.2 s" style: a time as the table shows it. */
export function formatMs(ms: number): string {
  return ms < 1000 ? l10n.t('{0} ms', Math.round(ms)) : l10n.t('{0} s', (ms / 1000).toFixed(ms < 10_000 ? 2 : 1));
}

/** p50 / p95 of a time, or a dash when no request completed. */
export function formatPercentiles(p: Percentiles | undefined): string {
  return p ? `${formatMs(p.p50)} / ${formatMs(p.p95)}` : '–';
}
