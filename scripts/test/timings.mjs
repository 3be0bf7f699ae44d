// Where a test run spent its time: each stage's wall time and the slowest tests of all, printed
// at the end of `npm test` so the next slowdown is seen where it happens.

/** "1 min 04 s" / "3.2 s". */
export function duration(ms) {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * The summary's lines. `stages`: [{ name, ms, status }] in the order they ran; `tests`: [{ title,
 * ms, where }] from every runner.
 */
export function timingSummary(stages, tests, count = 10) {
  const width = Math.max(...stages.map((s) => s.name.length), 5);
  const total = stages.reduce((sum, s) => sum + s.ms, 0);
  const lines = ['', 'Where the time went:'];
  for (const s of stages) lines.push(`  ${s.name.padEnd(width)}  ${duration(s.ms).padStart(12)}${s.status ? `  ${s.status}` : ''}`);
  lines.push(`  ${'total'.padEnd(width)}  ${duration(total).padStart(12)}`);
  const slowest = [...tests].sort((a, b) => b.ms - a.ms).slice(0, count);
  if (slowest.length) {
    lines.push('', `The slowest ${slowest.length} tests:`);
    for (const t of slowest) lines.push(`  ${duration(t.ms).padStart(12)}  [${t.where}] ${t.title}`);
  }
  return lines.join('\n');
}
