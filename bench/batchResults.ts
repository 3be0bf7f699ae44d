/**
 * Issue #26: opening the results of a 50,000-line batch (about 100 MB), in a process per side:
 * time to the first rows shown and peak memory, ours (line index, a page parsed at a time)
 * against JSON.parse of every line into an array.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SideResult {
  firstRowsMs: number;
  rows: number;
  total: number;
  scrollMs: number;
  peakMB: number;
  /** RSS before the side opened anything. */
  baseMB: number;
}

/** A batch output file like the service's: chat completions with a reply of about 1.7 KB each. */
async function writeOutput(path: string, lines: number): Promise<void> {
  const out = createWriteStream(path);
  const words = 'the batch answered this request with a reply long enough to look like a real one '.repeat(20);
  for (let i = 0; i < lines; i++) {
    const body = {
      id: `chatcmpl-${i}`,
      object: 'chat.completion',
      created: 1_700_000_000 + i,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content: `Answer ${i}: ${words}` }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 20 + (i % 50), completion_tokens: 300, total_tokens: 320 + (i % 50) },
    };
    const line = `${JSON.stringify({ id: `batch_req_${i}`, custom_id: `task-${i}`, response: { status_code: 200, request_id: `req-${i}`, body }, error: null })}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

function runSide(side: 'ours' | 'reference', path: string): Promise<SideResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'batchResults-child.ts'), side, path], { stdio: ['ignore', 'pipe', 'inherit'], cwd: join(__dirname, '..') });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(text) as SideResult) : reject(new Error(`${side} exited with ${code}`))));
  });
}

/** Median of three runs of each side (time), and the largest peak seen. */
export async function benchBatchResults(lines = 50_000): Promise<{ ours: SideResult; reference: SideResult; fileMB: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-batch-'));
  try {
    const path = join(dir, 'output.jsonl');
    await writeOutput(path, lines);
    const fileMB = (await stat(path)).size / 1024 / 1024;
    const pick = (xs: SideResult[]): SideResult => {
      const sorted = [...xs].sort((a, b) => a.firstRowsMs - b.firstRowsMs);
      const worst = [...xs].sort((a, b) => b.peakMB - b.baseMB - (a.peakMB - a.baseMB))[0]!;
      return { ...sorted[1]!, peakMB: worst.peakMB, baseMB: worst.baseMB };
    };
    const ours: SideResult[] = [];
    const reference: SideResult[] = [];
    for (let i = 0; i < 3; i++) {
      ours.push(await runSide('ours', path));
      reference.push(await runSide('reference', path));
    }
    for (const r of [...ours, ...reference]) if (r.total !== lines || r.rows !== 50) throw new Error(`a side read ${r.total} lines and showed ${r.rows} rows`);
    return { ours: pick(ours), reference: pick(reference), fileMB };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
