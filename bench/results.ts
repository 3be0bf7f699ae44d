/**
 * Keeps the last figures of `npm run bench` in docs/bench-results.md, one section per benchmark,
 * so that the README never holds a figure that goes stale: a run replaces the sections it measured
 * (all of them, or those BENCH_ONLY names) and keeps the others with the date they were taken.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

export type Row = { benchmark: string; ours: string; reference: string; ratio: string; goal: string };

const FILE = new URL('../docs/bench-results.md', import.meta.url);
const HEADER =
  '# Benchmark results\n\nWritten by `npm run bench` (do not edit by hand): each section is the last run of that ' +
  'benchmark, with when and where it ran. `BENCH_ONLY=name,… npm run bench` re-measures some and keeps the rest. ' +
  'What each row measures: the README\'s "Benchmarks" section and `bench/run.ts`.\n';

export function table(rows: readonly Row[]): string {
  const cols = ['benchmark', 'ours', 'reference', 'ratio', 'goal'] as const;
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  return [line(cols), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map((r) => line(cols.map((c) => r[c])))].join('\n');
}

/** The sections of the file as it is, by benchmark name (empty when there is no file yet). */
function readSections(): Map<string, string> {
  let text = '';
  try {
    text = readFileSync(FILE, 'utf8');
  } catch {
    return new Map();
  }
  const sections = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) sections.set(part.slice(0, part.indexOf('\n')).trim(), `## ${part.trimEnd()}\n`);
  return sections;
}

/** Replaces the sections measured in this run, in the order of `names`; keeps the others. */
export function saveResults(measured: ReadonlyMap<string, readonly Row[]>, names: readonly string[], now = new Date()): void {
  const sections = readSections();
  const where = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, Node ${process.versions.node}`;
  for (const [name, rows] of measured) if (rows.length) sections.set(name, `## ${name}\n\nMeasured ${where}.\n\n${table(rows)}\n`);
  const order = [...names, ...[...sections.keys()].filter((n) => !names.includes(n))];
  const body = order.flatMap((n) => (sections.has(n) ? [sections.get(n)] : [])).join('\n');
  writeFileSync(FILE, `${HEADER}\n${body}`);
}
