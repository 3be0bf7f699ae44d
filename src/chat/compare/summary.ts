/**
 * Run again ×N: the same prompt, round after round (each round's requests started together), and
 * per column the median and the spread (fastest to slowest) of what was measured in the rounds
 * that column answered; the rounds it failed are counted apart.
 */
import * as l10n from '@vscode/l10n';
import type { ColumnResult, ColumnSummary, Stat } from './figures';
import { runCompareRound, type ComparePrompt, type CompareOptions, type CompareRound, type CompareTarget } from './compareRun';

/** The most rounds one Run again takes: a bound, as each round is a request per deployment. */
export const MAX_ROUNDS = 20;

export function median(values: readonly number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median and range of the values given; none when there are none. */
export function statOf(values: ReadonlyArray<number | undefined>): Stat | undefined {
  const known = values.filter((v): v is number => v !== undefined);
  const m = median(known);
  if (m === undefined) return undefined;
  return { median: m, min: Math.min(...known), max: Math.max(...known) };
}

export type { ColumnSummary, Stat } from './figures';

/** Per target, over the rounds: medians and ranges of the rounds it answered. */
export function summarize(ids: readonly string[], rounds: readonly CompareRound[]): ColumnSummary[] {
  return ids.map((id) => {
    const answered = rounds.map((r) => r.columns.find((c) => c.id === id)).filter((c): c is ColumnResult => c?.outcome === 'ok');
    const summary: ColumnSummary = { id, answered: answered.length, rounds: rounds.length };
    const stats = {
      firstTokenMs: statOf(answered.map((c) => c.firstTokenMs)),
      totalMs: statOf(answered.map((c) => c.totalMs)),
      tokensPerSecond: statOf(answered.map((c) => c.tokensPerSecond)),
      completionTokens: statOf(answered.map((c) => c.tokens?.completion)),
      costUsd: statOf(answered.map((c) => c.costUsd)),
    };
    for (const [key, stat] of Object.entries(stats)) if (stat) Object.assign(summary, { [key]: stat });
    return summary;
  });
}

export interface RepeatOptions extends CompareOptions {
  /** After each round, with its number (1-based). */
  onRound?: (round: CompareRound, n: number) => void;
}

/** Runs `n` rounds one after another (stopping ends the rounds too); gives every round run. */
export async function repeatCompare(targets: readonly CompareTarget[], prompt: ComparePrompt, n: number, options: RepeatOptions): Promise<CompareRound[]> {
  if (!Number.isInteger(n) || n < 1 || n > MAX_ROUNDS) throw new RangeError(l10n.t('Run again takes 1 to {0} rounds; {1} was asked for.', MAX_ROUNDS, n));
  const rounds: CompareRound[] = [];
  while (rounds.length < n && !options.signal.aborted) {
    const round = await runCompareRound(targets, prompt, options);
    rounds.push(round);
    options.onRound?.(round, rounds.length);
  }
  return rounds;
}
