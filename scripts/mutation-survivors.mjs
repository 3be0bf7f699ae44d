// Lists the mutants no test caught in the last mutation run, one line each: where, which mutator,
// the original code and what it became. Usage: node scripts/mutation-survivors.mjs [report.json] [path-filter]
import { readFileSync } from 'node:fs';

const [reportPath = 'reports/mutation/mutation.json', filter = ''] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const oneLine = (text) => text.replace(/\s+/g, ' ').trim().slice(0, 100);

for (const [file, { source, mutants }] of Object.entries(report.files)) {
  if (!file.includes(filter)) continue;
  const lines = source.split('\n');
  const original = ({ start, end }) => {
    if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
    return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
  };
  const missed = mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage');
  if (!missed.length) continue;
  console.log(`\n${file}: ${missed.length} not caught`);
  for (const m of missed.sort((a, b) => a.location.start.line - b.location.start.line)) {
    const where = `${m.location.start.line}:${m.location.start.column}`;
    console.log(`  ${where} ${m.mutatorName}${m.status === 'NoCoverage' ? ' (no test runs it)' : ''}: ${oneLine(original(m.location))} → ${oneLine(m.replacement ?? '')}`);
  }
}
