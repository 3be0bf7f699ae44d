/**
 * The usage view's tables as CSV (RFC 4180: comma separated, CRLF line ends, quotes doubled).
 * Names come from the service and the user's settings: a cell that a spreadsheet would run as a
 * formula (=, +, -, @) gets a leading apostrophe. A cost without a price stays empty, never 0.
 */
import { WINDOW_DAYS, type DeploymentUsage, type UsageSummary, type WindowName, type WindowStats } from './aggregate';
import type { AnsweredStats } from './answered';
import { csvField } from '../text/csv';

type Cell = string | number | undefined;

const row = (cells: Cell[]) => cells.map(csvField).join(',');
// Stryker disable next-line ConditionalExpression: undefined would round to NaN, which csvField leaves empty too
const dollars = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 1e6) / 1e6);

const WINDOW_LABEL: Record<WindowName, string> = { today: 'today', week: `${WINDOW_DAYS.week} days`, month: `${WINDOW_DAYS.month} days` };

/**
 * A row's figures: a deployment's window, or one answering model's part of it (a model router's
 * split has requests, tokens and cost only: its other cells stay empty).
 */
type Figures = AnsweredStats & Partial<WindowStats>;

/** The columns after the window, each with its cell. */
const COLUMNS: ReadonlyArray<readonly [string, (d: DeploymentUsage, f: Figures) => Cell]> = [
  ['connection', (d) => d.connectionLabel],
  ['deployment', (d) => d.deployment],
  ['model', (d) => d.model],
  ['model version', (d) => d.modelVersion],
  ['requests', (_, f) => f.requests],
  ['input tokens', (_, f) => f.promptTokens],
  ['cached input tokens', (_, f) => f.cachedTokens],
  ['output tokens', (_, f) => f.completionTokens],
  ['reasoning tokens', (_, f) => f.reasoningTokens],
  ['audio input tokens', (_, f) => f.audioInTokens],
  ['audio output tokens', (_, f) => f.audioOutTokens],
  ['first token p50 (ms)', (_, f) => f.firstTokenMs?.p50],
  ['first token p95 (ms)', (_, f) => f.firstTokenMs?.p95],
  ['total p50 (ms)', (_, f) => f.totalMs?.p50],
  ['total p95 (ms)', (_, f) => f.totalMs?.p95],
  ['429 responses', (_, f) => f.rateLimited],
  ['other errors', (_, f) => f.errors],
  ['estimated cost (USD)', (_, f) => dollars(f.cost)],
  ['requests without a price', (_, f) => f.unpricedRequests],
];

/** Per deployment and window: requests, tokens, times, 429s and the estimated cost; a model router's rows by the model that answered. */
export function usageTableCsv(summary: UsageSummary): string {
  const lines = [row(['window', ...COLUMNS.map(([name]) => name), 'answered by'])];
  const line = (window: WindowName, d: DeploymentUsage, f: Figures, answeredBy?: string) =>
    row([WINDOW_LABEL[window], ...COLUMNS.map(([, cell]) => cell(d, f)), answeredBy]);
  for (const window of Object.keys(WINDOW_DAYS) as WindowName[]) {
    for (const d of summary.deployments) {
      lines.push(line(window, d, d.windows[window]));
      for (const a of d.answeredBy ?? []) if (a.windows[window].requests) lines.push(line(window, d, a.windows[window], a.model));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
