/**
 * What a compare shows, for the extension and the page alike (plain data and text, no Node):
 * a column's result, the medians of Run again, and the figures as the table and the page say them
 * (in the display language: @vscode/l10n reads the bundle on either side).
 */
import * as l10n from '@vscode/l10n';

export type ColumnFailureKind = 'rate_limited' | 'content_filter' | 'refused' | 'failed';

export interface ColumnFailure {
  kind: ColumnFailureKind;
  message: string;
  status?: number;
  /** A 429: when the deployment takes requests again (ms since the epoch), for the countdown. */
  retryAt?: number;
}

export interface ColumnResult {
  /** The target's id. */
  id: string;
  outcome: 'ok' | 'stopped' | 'failed';
  content: string;
  finishReason: string | null;
  /** The model that answered, as the service names it, else the deployment's. */
  model?: string;
  firstTokenMs?: number;
  totalMs: number;
  /** As the runner reports them (usage/record.ts UsageTokens). */
  tokens?: { prompt: number; cached: number; completion: number; reasoning: number; audioIn?: number; audioOut?: number };
  /** Completion tokens over the time they took to arrive (after the first). */
  tokensPerSecond?: number;
  /** Estimated US dollars; none when the model has no price or nothing was counted. */
  costUsd?: number;
  /** What the runner changed or saw (a parameter left out, the content filter ending the reply). */
  notes: string[];
  failure?: ColumnFailure;
  /** The column's trace (src/trace), when it was traced: Show Trace opens it. */
  traceId?: string;
}

export interface Stat {
  median: number;
  min: number;
  max: number;
}

export interface ColumnSummary {
  id: string;
  /** Rounds the column answered (to the end) / rounds run. */
  answered: number;
  rounds: number;
  firstTokenMs?: Stat;
  totalMs?: Stat;
  tokensPerSecond?: Stat;
  completionTokens?: Stat;
  costUsd?: Stat;
}

/** A table cell: one line, pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export const ms = (v: number | undefined) => (v === undefined ? '–' : l10n.t('{0} ms', Math.round(v)));
export const perSecond = (v: number | undefined) => (v === undefined ? '–' : l10n.t('{0}/s', v.toFixed(1)));
/** US dollars, with more digits for the fractions of a cent one request costs. */
export const usd = (v: number) => `$${v < 0.01 ? v.toFixed(6) : v.toFixed(4)}`;
/** Always said to be an estimate; none when the model has no price. */
export const dollars = (v: number | undefined) => (v === undefined ? l10n.t('no price') : l10n.t('{0} (estimate)', usd(v)));

/** A column's cost: none counted, nothing to price; counted without a price, said so. */
export const costText = (c: Pick<ColumnResult, 'tokens' | 'costUsd'>) => (c.tokens ? dollars(c.costUsd) : '–');

export function tokensText(c: Pick<ColumnResult, 'tokens'>): string {
  if (!c.tokens) return '–';
  const { prompt, cached, completion, reasoning } = c.tokens;
  const parts = [l10n.t('{0} in, {1} out', prompt, completion)];
  if (cached) parts.push(l10n.t('{0} cached', cached));
  if (reasoning) parts.push(l10n.t('{0} reasoning', reasoning));
  if (c.tokens.audioIn) parts.push(l10n.t('{0} audio in', c.tokens.audioIn));
  if (c.tokens.audioOut) parts.push(l10n.t('{0} audio out', c.tokens.audioOut));
  return parts.join(', ');
}

/** How the column ended, in words. */
export function endText(c: Pick<ColumnResult, 'outcome' | 'finishReason' | 'failure'>): string {
  if (c.failure) return c.failure.status ? `${c.failure.kind} (${c.failure.status})` : c.failure.kind;
  if (c.outcome === 'stopped') return l10n.t('stopped');
  return c.finishReason ?? '–';
}

export const statText = (s: Stat | undefined, show: (v: number) => string) => (s ? `${show(s.median)} (${show(s.min)}–${show(s.max)})` : '–');
/** A cost's median and range, said once to be an estimate. */
export const costStat = (s: Stat | undefined) => (s ? l10n.t('{0} estimate', statText(s, usd)) : l10n.t('no price'));

