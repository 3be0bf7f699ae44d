/**
 * One side of the batch results bench, in a process of its own so that its peak memory is its own:
 * `ours` opens the results through the line index (first page, then the full count), `reference`
 * reads the file with JSON.parse per line into an array. Prints one JSON line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { BatchResults } from '../src/jobs/batchResults';

const PAGE = 50;

async function ours(path: string) {
  const t0 = performance.now();
  const results = BatchResults.open({ output: path });
  const rows = await results.page(0, PAGE);
  const firstRowsMs = performance.now() - t0;
  const total = await results.total();
  // Scrolling: a page from the middle and one from the end, each read on its own.
  const t1 = performance.now();
  await results.page(Math.floor(total / 2), PAGE);
  await results.page(total - PAGE, PAGE);
  const scrollMs = (performance.now() - t1) / 2;
  return { firstRowsMs, rows: rows.length, total, scrollMs };
}

async function reference(path: string) {
  const t0 = performance.now();
  const all: unknown[] = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) if (line.trim()) all.push(JSON.parse(line));
  const rows = all.slice(0, PAGE);
  return { firstRowsMs: performance.now() - t0, rows: rows.length, total: all.length, scrollMs: 0 };
}

async function main() {
  const [side, path] = process.argv.slice(2);
  // What the process holds before opening anything (Node, tsx, the modules): not the results' cost.
  const baseMB = process.memoryUsage().rss / 1024 / 1024;
  const r = side === 'ours' ? await ours(path!) : await reference(path!);
  // maxRSS is in kilobytes.
  const peakMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ...r, peakMB, baseMB })}\n`);
}

void main();
