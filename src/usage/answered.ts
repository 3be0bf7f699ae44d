/**
 * A deployment's requests split by the model that answered them: a model router (or any
 * deployment whose answers name more than one model) sends each request to one of several, and
 * each is priced at its own rate. Names are compared without their date (gpt-4.1-nano-2025-04-14
 * and gpt-4.1-nano are one model), so a deployment answered by one model is never split.
 */
import { costOf, priceFor, type PriceTable } from './prices';

/** Tokens of one day priced alike (the same model, version, and batch or not): a price applies to their sum. */
export interface PricedTokens {
  model?: string;
  modelVersion?: string;
  batch: boolean;
  requests: number;
  prompt: number;
  /** Cached tokens as the price counts them: never more than the record's prompt. */
  cached: number;
  completion: number;
}

export interface AnsweredStats {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** Undefined when the model has no price. */
  cost?: number;
}

export interface AnsweredUsage<W extends string = string> {
  /** As the answers name it (the newest name seen, date included). */
  model: string;
  windows: Record<W, AnsweredStats>;
}

/** A model's name without a trailing date (-YYYY-MM-DD). */
export const undated = (model: string): string => model.replace(/-\d{4}-\d{2}-\d{2}$/, '');

/**
 * The split of a deployment's chart days (oldest first; a window is its last N days), or
 * undefined when fewer than two models answered in all of them. Requests that named no model (a
 * failure) are in the deployment's row only.
 */
export function answeredBy<W extends string>(
  days: ReadonlyArray<{ priced: readonly PricedTokens[] } | undefined>,
  windows: Readonly<Record<W, number>>,
  prices: PriceTable,
): Array<AnsweredUsage<W>> | undefined {
  const byModel = new Map<string, { model: string; days: Map<number, PricedTokens[]> }>();
  days.forEach((d, day) => {
    for (const p of d?.priced ?? []) {
      if (!p.model) continue;
      const key = undated(p.model);
      let m = byModel.get(key);
      if (!m) byModel.set(key, (m = { model: p.model, days: new Map() }));
      if (p.model.length > m.model.length) m.model = p.model;
      m.days.set(day, [...(m.days.get(day) ?? []), p]);
    }
  });
  if (byModel.size < 2) return undefined;
  return [...byModel.values()].map((m) => {
    const stats = {} as Record<W, AnsweredStats>;
    for (const w of Object.keys(windows) as W[]) {
      const s: AnsweredStats = { requests: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 };
      for (const [day, priced] of m.days) {
        if (day < days.length - windows[w]) continue;
        for (const p of priced) {
          s.requests += p.requests;
          s.promptTokens += p.prompt;
          s.cachedTokens += p.cached;
          s.completionTokens += p.completion;
          const price = priceFor(prices, p.model, p.modelVersion);
          if (price) s.cost = (s.cost ?? 0) + costOf(price, p, p.batch);
        }
      }
      stats[w] = s;
    }
    return { model: m.model, windows: stats };
  });
}
