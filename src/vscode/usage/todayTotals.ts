/**
 * Today's totals for the status bar, from the usage view's summary, and how they read. No
 * `vscode` import (tested in plain Node), and no code of the usage log: it stays in its bundle.
 */
import * as l10n from '@vscode/l10n';
import type { UsageSummary } from '../../usage/aggregate';
import { groupDigits } from '../../text/format';

export interface TodayTotals {
  requests: number;
  tokensIn: number;
  tokensOut: number;
  /** Estimated US dollars of the requests with a price; undefined when none has one. */
  cost?: number;
  /** Requests whose model has no price (their tokens count, their cost does not). */
  unpriced: number;
}

/** Today's requests, tokens and estimated cost across every deployment of the summary. */
export function todayTotals(summary: UsageSummary): TodayTotals {
  const t: TodayTotals = { requests: 0, tokensIn: 0, tokensOut: 0, unpriced: 0 };
  for (const d of summary.deployments) {
    const w = d.windows.today;
    t.requests += w.requests;
    t.tokensIn += w.promptTokens;
    t.tokensOut += w.completionTokens;
    t.unpriced += w.unpricedRequests;
    if (w.cost !== undefined) t.cost = (t.cost ?? 0) + w.cost;
  }
  return t;
}

/** 1234 → "1,234"; 12345 → "12.3k"; 1234567 → "1.2M". */
export function compactCount(n: number): string {
  if (n >= 999_950) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 10_000) return `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k`;
  return groupDigits(n);
}

/** An estimated cost as the user reads it: "$0.42", "<$0.01", "$0.00" for nothing. */
export function dollars(cost: number): string {
  if (cost > 0 && cost < 0.01) return '<$0.01';
  return `$${cost.toFixed(2)}`;
}

/** The status bar's text: "1,234 tokens · ~$0.42" ("<$0.01" for a tiny cost), tokens only when no model has a price. */
export function statusText(t: TodayTotals): string {
  const tokens = l10n.t('{0} tokens', compactCount(t.tokensIn + t.tokensOut));
  if (t.cost === undefined) return tokens;
  const cost = dollars(t.cost);
  return `${tokens} · ${cost.startsWith('<') ? cost : `~${cost}`}`;
}
