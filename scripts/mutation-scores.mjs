// Prints the mutation score per module as a Markdown table and keeps it in docs/mutation-scores.md,
// so the README holds no figure that goes stale. Reads the last `npm run mutate` report
// (reports/mutation/mutation.json), or the reports named as arguments (focused runs write their
// own): for each file, the newest report that covers it wins. Score: mutants killed or timed out,
// of those that compile (Stryker's own figure).
import { readFileSync, statSync, writeFileSync } from 'node:fs';

const GOAL = 85;
const paths = process.argv.length > 2 ? process.argv.slice(2) : [new URL('../reports/mutation/mutation.json', import.meta.url).pathname];
const files = new Map();
for (const path of paths.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)) {
  const day = statSync(path).mtime.toISOString().slice(0, 10);
  for (const [file, { mutants }] of Object.entries(JSON.parse(readFileSync(path, 'utf8')).files)) files.set(file, { mutants, day });
}
const rows = [...files].map(([file, { mutants, day }]) => {
  const count = (...states) => mutants.filter((m) => states.includes(m.status)).length;
  const detected = count('Killed', 'Timeout');
  const undetected = count('Survived', 'NoCoverage');
  const total = detected + undetected;
  return { file: file.replace(/^src\//, ''), detected, undetected, day, score: total ? (100 * detected) / total : 100 };
});
// Modules none of these reports covers (a focused run's report names only its own) keep the row the
// document already has for them.
const doc = new URL('../docs/mutation-scores.md', import.meta.url);
let previous = '';
try {
  previous = readFileSync(doc, 'utf8');
} catch {}
for (const m of previous.matchAll(/^\| `([^`]+)` \| (\d+) \| (\d+) \| ([\d.]+) %[^|]*\| ([\d-]+) \|$/gm)) {
  if (rows.some((r) => r.file === m[1])) continue;
  rows.push({ file: m[1], detected: Number(m[2]), undetected: Number(m[3]), day: m[5], score: Number(m[4]) });
}
rows.sort((a, b) => a.file.localeCompare(b.file));
const killed = rows.reduce((n, r) => n + r.detected, 0);
const all = killed + rows.reduce((n, r) => n + r.undetected, 0);
const below = rows.filter((r) => r.score < GOAL);
const lines = [
  '| module | killed | survived | score | measured |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| \`${r.file}\` | ${r.detected} | ${r.undetected} | ${r.score.toFixed(1)} %${r.score < GOAL ? ' ✗' : ''} | ${r.day} |`),
  '',
  `${killed.toLocaleString('en')} of ${all.toLocaleString('en')} mutants killed (${((100 * killed) / (all || 1)).toFixed(1)} %). ` +
    (below.length ? `${below.length} module(s) below ${GOAL} %.` : `Every module at or above ${GOAL} %.`),
];
console.log(lines.join('\n'));
writeFileSync(
  doc,
  '# Mutation scores\n\nWritten by `npm run mutate` and `node scripts/mutation-scores.mjs [report.json…]` (do not edit by hand): ' +
    `the score of each core module from the newest report that covers it. Goal: ≥ ${GOAL} % per module.\n\n${lines.join('\n')}\n`,
);
process.exitCode = below.length ? 1 : 0;
