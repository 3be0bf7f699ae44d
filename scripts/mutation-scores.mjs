// Prints the mutation score per module from the last `npm run mutate` (reports/mutation/mutation.json)
// as a Markdown table, the way the README shows it. Score: mutants killed or timed out, of those
// that compile (Stryker's own figure); the goal is 85 % per module.
import { readFileSync } from 'node:fs';

const GOAL = 85;
const report = JSON.parse(readFileSync(new URL('../reports/mutation/mutation.json', import.meta.url), 'utf8'));
const rows = Object.entries(report.files).map(([file, { mutants }]) => {
  const count = (...states) => mutants.filter((m) => states.includes(m.status)).length;
  const detected = count('Killed', 'Timeout');
  const undetected = count('Survived', 'NoCoverage');
  const total = detected + undetected;
  return { file: file.replace(/^src\//, ''), detected, undetected, score: total ? (100 * detected) / total : 100 };
});
console.log('| module | killed | survived | score |');
console.log('|---|---|---|---|');
for (const r of rows.sort((a, b) => a.file.localeCompare(b.file))) {
  console.log(`| \`${r.file}\` | ${r.detected} | ${r.undetected} | ${r.score.toFixed(1)} %${r.score < GOAL ? ' ✗' : ''} |`);
}
const below = rows.filter((r) => r.score < GOAL);
console.log(below.length ? `\n${below.length} module(s) below ${GOAL} %.` : `\nEvery module at or above ${GOAL} %.`);
process.exitCode = below.length ? 1 : 0;
