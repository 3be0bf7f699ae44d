/**
 * Export as Markdown: the prompt, the table of what each deployment measured (and, after Run
 * again, the medians and ranges), then each reply under its deployment's name. Replies are the
 * models' own Markdown, put in as they came; table cells are escaped so a reply cannot break the table.
 */
import { cell, costStat, costText, endText, ms, perSecond, statText, tokensText, type ColumnResult, type ColumnSummary } from './figures';

export { cell, costStat, costText, dollars, endText, ms, perSecond, statText, tokensText, usd } from './figures';

export interface ExportColumn {
  label: string;
  column: ColumnResult;
  summary?: ColumnSummary;
}

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
