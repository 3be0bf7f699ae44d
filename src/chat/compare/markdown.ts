/**
 * Export as Markdown: the prompt, the table of what each deployment measured (and, after Run
 * again, the medians and ranges), then each reply under its deployment's name. Replies are the
 * models' own Markdown, put in as they came; table cells are escaped so a reply cannot break the table.
 */
import type { ColumnResult } from './column';
import type { ColumnSummary, Stat } from './summary';

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

export interface ExportColumn {
  label: string;
  column: ColumnResult;
  summary?: ColumnSummary;
}

export const statText = (s: Stat | undefined, show: (v: number) => string) => (s ? `${show(s.median)} (${show(s.min)}–${show(s.max)})` : '–');
/** A cost's median and range, said once to be an estimate. */
export const costStat = (s: Stat | undefined) => (s ? `${statText(s, usd)} estimate` : 'no price');

export function compareMarkdown(prompt: string, columns: readonly ExportColumn[], when = new Date()): string {
  const lines = [`# Compare: ${columns.length} deployments`, '', `_${when.toISOString()}_`, '', '## Prompt', '', prompt, '', '## Results', ''];
  lines.push('| Deployment | Model | First token | Total | Tokens/s | Tokens | Cost | Finish |', '|---|---|---|---|---|---|---|---|');
  for (const { label, column: c } of columns) {
    lines.push(`| ${[label, c.model ?? '–', ms(c.firstTokenMs), ms(c.totalMs), perSecond(c.tokensPerSecond), tokensText(c), costText(c), endText(c)].map(cell).join(' | ')} |`);
  }
  const summaries = columns.filter((c) => c.summary && c.summary.rounds > 1);
  if (summaries.length) {
    lines.push('', `## Medians over ${summaries[0].summary!.rounds} runs (range)`, '');
    lines.push('| Deployment | Answered | First token | Total | Tokens/s | Cost |', '|---|---|---|---|---|---|');
    for (const { label, summary: s } of summaries) {
      const row = [label, `${s!.answered}/${s!.rounds}`, statText(s!.firstTokenMs, ms), statText(s!.totalMs, ms), statText(s!.tokensPerSecond, perSecond), costStat(s!.costUsd)];
      lines.push(`| ${row.map(cell).join(' | ')} |`);
    }
  }
  for (const { label, column: c } of columns) {
    const blocks = [c.failure && `> ${cell(c.failure.message)}`, c.content, ...c.notes.map((n) => `> ${cell(n)}`)].filter(Boolean);
    lines.push('', `## ${label}`, '', blocks.join('\n\n'));
  }
  return lines.join('\n') + '\n';
}
