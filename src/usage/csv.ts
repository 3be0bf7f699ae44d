/**
 * The usage view's tables as CSV (RFC 4180: comma separated, CRLF line ends, quotes doubled).
 * Names come from the service and the user's settings: a cell that a spreadsheet would run as a
 * formula (=, +, -, @) gets a leading apostrophe. A cost without a price stays empty, never 0.
 */
import { WINDOW_DAYS, type Percentiles, type UsageSummary, type WindowName } from './aggregate';
import { csvField } from '../text/csv';

type Cell = string | number | undefined;

const row = (cells: Cell[]) => cells.map(csvField).join(',');
// Stryker disable next-line ConditionalExpression: undefined would round to NaN, which csvField leaves empty too
const dollars = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 1e6) / 1e6);
const p = (x: Percentiles | undefined, k: keyof Percentiles) => x?.[k];

const WINDOW_LABEL: Record<WindowName, string> = { today: 'today', week: `${WINDOW_DAYS.week} days`, month: `${WINDOW_DAYS.month} days` };

/** Per deployment and window: requests, tokens, times, 429s and the estimated cost. */
export function usageTableCsv(summary: UsageSummary): string {
  const lines = [
    row([
      'window',
      'connection',
      'deployment',
      'model',
      'model version',
      'requests',
      'input tokens',
      'cached input tokens',
      'output tokens',
      'reasoning tokens',
      'audio input tokens',
      'audio output tokens',
      'first token p50 (ms)',
      'first token p95 (ms)',
      'total p50 (ms)',
      'total p95 (ms)',
      '429 responses',
      'other errors',
      'estimated cost (USD)',
      'requests without a price',
      'answered by',
    ]),
  ];
  for (const window of Object.keys(WINDOW_DAYS) as WindowName[]) {
    for (const d of summary.deployments) {
      const w = d.windows[window];
      lines.push(
        row([
          WINDOW_LABEL[window],
          d.connectionLabel,
          d.deployment,
          d.model,
          d.modelVersion,
          w.requests,
          w.promptTokens,
          w.cachedTokens,
          w.completionTokens,
          w.reasoningTokens,
          w.audioInTokens,
          w.audioOutTokens,
          p(w.firstTokenMs, 'p50'),
          p(w.firstTokenMs, 'p95'),
          p(w.totalMs, 'p50'),
          p(w.totalMs, 'p95'),
          w.rateLimited,
          w.errors,
          dollars(w.cost),
          w.unpricedRequests,
          undefined,
        ]),
      );
      // A model router's rows by the model that answered: requests, tokens and cost, the rest its deployment's.
      for (const a of d.answeredBy ?? []) {
        const s = a.windows[window];
        if (!s.requests) continue;
        // Reasoning and audio tokens, times, 429s and other errors are the deployment's row's only.
        const blank = Array<undefined>(9).fill(undefined);
        const tokens = [s.requests, s.promptTokens, s.cachedTokens, s.completionTokens];
        const names = [WINDOW_LABEL[window], d.connectionLabel, d.deployment, d.model, d.modelVersion];
        lines.push(row([...names, ...tokens, ...blank, dollars(s.cost), undefined, a.model]));
      }
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
