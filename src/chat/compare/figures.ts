/**
 * What a compare shows, for the extension and the page alike (plain data and text, no Node):
 * a column's result, the medians of Run again, and the figures as the table and the page say them.
 */

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
  /** As the runner reports them (engine/report.ts TokenCounts). */
  tokens?: { prompt: number; cached: number; completion: number; reasoning: number };
  /** Completion tokens over the time they took to arrive (after the first). */
  tokensPerSecond?: number;
  /** Estimated US dollars; none when the model has no price or nothing was counted. */
  costUsd?: number;
  /** What the runner changed or saw (a parameter left out, the content filter ending the reply). */
  notes: string[];
  failure?: ColumnFailure;
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

export const ms = (v: number | undefined) => (v === undefined ? '–' : `${Math.round(v)} ms`);
export const perSecond = (v: number | undefined) => (v === undefined ? '–' : `${v.toFixed(1)}/s`);
/** US dollars, with more digits for the fractions of a cent one request costs. */
export const usd = (v: number) => `$${v < 0.01 ? v.toFixed(6) : v.toFixed(4)}`;
/** Always said to be an estimate; none when the model has no price. */
export const dollars = (v: number | undefined) => (v === undefined ? 'no price' : `${usd(v)} (estimate)`);

/** A column's cost: none counted, nothing to price; counted without a price, said so. */
export const costText = (c: Pick<ColumnResult, 'tokens' | 'costUsd'>) => (c.tokens ? dollars(c.costUsd) : '–');

export function tokensText(c: Pick<ColumnResult, 'tokens'>): string {
  if (!c.tokens) return '–';
  const reasoning = c.tokens.reasoning ? `, ${c.tokens.reasoning} reasoning` : '';
  return `${c.tokens.prompt} in, ${c.tokens.completion} out${reasoning}`;
}

/** How the column ended, in words. */
export function endText(c: Pick<ColumnResult, 'outcome' | 'finishReason' | 'failure'>): string {
  if (c.failure) return c.failure.status ? `${c.failure.kind} (${c.failure.status})` : c.failure.kind;
  if (c.outcome === 'stopped') return 'stopped';
  return c.finishReason ?? '–';
}

export const statText = (s: Stat | undefined, show: (v: number) => string) => (s ? `${show(s.median)} (${show(s.min)}–${show(s.max)})` : '–');
/** A cost's median and range, said once to be an estimate. */
export const costStat = (s: Stat | undefined) => (s ? `${statText(s, usd)} estimate` : 'no price');

