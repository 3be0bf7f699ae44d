/**
 * One side of the usage view bench, in a process of its own (a window's first open of the view:
 * its peak memory is its own). `ours` takes the view's own path (`UsageLog.summarize`); `naive`
 * reads the whole file, splits it, parses every line into an array and makes the same tables with
 * plain arrays (filters per window and day, a sort per percentile). Prints one JSON line: the
 * times, and the figures both give, for the parent to compare.
 */
import { readFileSync } from 'node:fs';
import type { UsageSummary } from '../src/usage/aggregate';
import { lastDays } from '../src/usage/days';
import { costOf, DEFAULT_PRICES, priceFor } from '../src/usage/prices';
import { validateUsageRecord, type UsageRecord } from '../src/usage/record';
import { DEFAULT_USAGE_CAPS, UsageLog } from '../src/usage/usageLog';

const DAY_MS = 86_400_000;
const SPANS = [1, 7, 30];

interface Figures {
  id: string;
  windows: Array<Array<number | string | undefined>>;
  daily: number[][];
}

/** Dollars to a hundredth of a cent: the two ways add the same costs in another order. */
const dollars = (v: number | undefined) => v?.toFixed(4);

function figuresOf(s: UsageSummary): Figures[] {
  return s.deployments.map((d) => ({
    id: `${d.connectionId}/${d.deployment}`,
    windows: (['today', 'week', 'month'] as const).map((name) => {
      const w = d.windows[name];
      const { firstTokenMs: f, totalMs: t } = w;
      const counts = [w.requests, w.promptTokens, w.cachedTokens, w.completionTokens, w.reasoningTokens, w.rateLimited, w.errors];
      return [...counts, f?.p50, f?.p95, t?.p50, t?.p95, dollars(w.cost), w.unpricedRequests];
    }),
    daily: d.daily.map((u) => [u.tokensIn, u.tokensOut]),
  }));
}

/** The tables the plain way: every record in an array, then filtered and reduced per deployment, window and day. */
function naive(path: string, now: number): { figures: Figures[]; records: number } {
  const all: UsageRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const r = validateUsageRecord(JSON.parse(line));
      if (r) all.push(r);
    } catch {
      /* a torn line */
    }
  }
  const { starts } = lastDays(now, 30);
  const notBefore = Math.max(starts[0], now - DEFAULT_USAGE_CAPS.maxAgeDays * DAY_MS);
  const kept = all.filter((r) => r.at >= notBefore);
  const ids = [...new Set(kept.map((r) => `${r.connectionId}/${r.deployment}`))];
  const rank = (xs: number[], q: number) => xs[Math.ceil(q * xs.length) - 1];
  const figures = ids.map((id) => {
    const mine = kept.filter((r) => `${r.connectionId}/${r.deployment}` === id);
    const windows = SPANS.map((span) => {
      const rs = mine.filter((r) => r.at >= starts[30 - span]);
      const sum = (f: (r: UsageRecord) => number) => rs.reduce((n, r) => n + f(r), 0);
      const ok = rs.filter((r) => r.outcome.kind === 'ok');
      const first = ok.map((r) => r.firstTokenMs).filter((v) => v !== undefined).sort((a, b) => a - b);
      const total = ok.map((r) => r.totalMs).filter((v) => v !== undefined).sort((a, b) => a - b);
      const priced = rs.filter((r) => priceFor(DEFAULT_PRICES, r.model, r.modelVersion));
      const cost = priced.length ? priced.reduce((n, r) => n + costOf(priceFor(DEFAULT_PRICES, r.model, r.modelVersion)!, r.tokens, r.source === 'batch'), 0) : undefined;
      return [
        sum((r) => r.requests ?? 1),
        sum((r) => r.tokens.prompt),
        sum((r) => r.tokens.cached),
        sum((r) => r.tokens.completion),
        sum((r) => r.tokens.reasoning),
        sum((r) => (r.outcome.kind === 'rate_limited' ? (r.requests ?? 1) : 0)),
        sum((r) => (r.outcome.kind === 'error' ? (r.requests ?? 1) : 0)),
        first.length ? rank(first, 0.5) : undefined,
        first.length ? rank(first, 0.95) : undefined,
        total.length ? rank(total, 0.5) : undefined,
        total.length ? rank(total, 0.95) : undefined,
        dollars(cost),
        sum((r) => (priceFor(DEFAULT_PRICES, r.model, r.modelVersion) ? 0 : (r.requests ?? 1))),
      ];
    });
    const daily = starts.slice(0, 30).map((start, i) => {
      const day = mine.filter((r) => r.at >= start && (i === 29 || r.at < starts[i + 1]));
      return [day.reduce((n, r) => n + r.tokens.prompt, 0), day.reduce((n, r) => n + r.tokens.completion, 0)];
    });
    return { id, windows, daily };
  });
  return { figures, records: kept.length };
}

async function main(): Promise<void> {
  const [mode, path, nowText] = process.argv.slice(2);
  const now = Number(nowText);
  // A window opens its log once (counting its lines): not part of showing the view.
  const log = mode === 'ours' ? await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => now) : undefined;
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let result: { figures: Figures[]; records: number };
  if (log) {
    const summary = await log.summarize();
    result = { figures: figuresOf(summary), records: summary.records };
  } else result = naive(path, now);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  result.figures.sort((a, b) => (a.id < b.id ? -1 : 1));
  // maxRSS: the most this process ever held (KiB), module loading included on both sides.
  const peakMB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, peakMB, records: result.records, tables: JSON.stringify(result.figures) }));
}

void main();
