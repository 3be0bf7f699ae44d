/**
 * A batch's results: its output and error files downloaded once into the extension's storage,
 * then read as one table a page at a time through line indexes, with one line's full request and
 * response on demand, and exports as JSONL or CSV. Nothing reads or holds a whole file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FilesApi } from '../service/files';
import type { JobsApi } from '../service/jobs';
import type { Batch } from '../service/jobTypes';
import { endsWithNewline } from '../storage/appendLog';
import { storedIdPath } from '../storage/storedId';
import { LineIndex } from './lineIndex';
import { eachLine, parseObject } from './lines';
import { CSV_HEADER, csvLine, toRow, type ResultRow } from './resultRows';

export interface ResultFiles {
  output?: string;
  error?: string;
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

/**
 * Downloads the output and error files of a batch into `storage/<batch id>/` (once: a finished
 * batch's files never change, and a download appears only when complete).
 */
export async function downloadResults(
  files: FilesApi,
  batch: Batch,
  storage: string,
  options: { onProgress?: (bytes: number) => void; signal?: AbortSignal } = {},
): Promise<ResultFiles> {
  const dir = storedIdPath(storage, batch.id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const out: ResultFiles = {};
  let before = 0;
  for (const kind of ['output', 'error'] as const) {
    const id = kind === 'output' ? batch.output_file_id : batch.error_file_id;
    if (!id) continue;
    const path = join(dir, `${kind}.jsonl`);
    if (!(await exists(path))) {
      const done = await files.download(id, path, { signal: options.signal, onProgress: (n) => options.onProgress?.(before + n) });
      before += done;
    }
    out[kind] = path;
  }
  return out;
}

/**
 * Downloads a batch's input file into `storage/<batch id>/input.jsonl` (once), for the request a
 * result line answers. The batch id may come from a command's arguments: checked where the path is made.
 */
export async function downloadInput(files: FilesApi, batchId: string, inputFileId: string, storage: string): Promise<string> {
  const path = storedIdPath(storage, batchId, 'input.jsonl');
  if (await exists(path)) return path;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await files.download(inputFileId, path);
  return path;
}

export class BatchResults {
  private constructor(
    private readonly output: LineIndex | undefined,
    private readonly errors: LineIndex | undefined,
    readonly files: ResultFiles,
  ) {}

  /** Starts indexing both files; rows can be asked for at once. */
  static open(files: ResultFiles, signal?: AbortSignal): BatchResults {
    const index = (path?: string) => (path ? LineIndex.open(path, signal) : undefined);
    return new BatchResults(index(files.output), index(files.error), files);
  }

  /** Rows known so far: all of them once `complete`. */
  get count(): number {
    return (this.output?.count ?? 0) + (this.errors?.count ?? 0);
  }

  get complete(): boolean {
    return (this.output?.complete ?? true) && (this.errors?.complete ?? true);
  }

  /** Every row counted (after both files are indexed). */
  async total(): Promise<number> {
    await Promise.all([this.output?.done, this.errors?.done]);
    return this.count;
  }

  private async lines(from: number, count: number): Promise<Array<{ bytes: Buffer; index: number; source: ResultRow['source'] }>> {
    const rows: Array<{ bytes: Buffer; index: number; source: ResultRow['source'] }> = [];
    if (this.output) {
      const got = await this.output.read(from, count);
      got.forEach((bytes, i) => rows.push({ bytes, index: from + i, source: 'output' }));
      if (rows.length === count) return rows;
    }
    if (this.errors) {
      // Error rows come after every output row: the output file is counted to its end first.
      const outputs = (await this.output?.done) ?? 0;
      const start = Math.max(0, from - outputs);
      const got = await this.errors.read(start, count - rows.length);
      got.forEach((bytes, i) => rows.push({ bytes, index: outputs + start + i, source: 'error' }));
    }
    return rows;
  }

  /** Rows `from` to `from + count` (fewer at the end), each line parsed on its own. */
  async page(from: number, count: number): Promise<ResultRow[]> {
    return (await this.lines(from, count)).map((l) => toRow(l.bytes, l.index, l.source));
  }

  /** One row's whole line (`custom_id`, `response` with its body, `error`), or undefined past the end. */
  async line(index: number): Promise<Record<string, unknown> | undefined> {
    const [l] = await this.lines(index, 1);
    if (!l) return undefined;
    const parsed = parseObject(l.bytes);
    return 'value' in parsed ? parsed.value : { unreadable: l.bytes.toString('utf8', 0, 2000) };
  }

  /** Output lines, then error lines, as one JSONL file. */
  async exportJsonl(dest: string, signal?: AbortSignal): Promise<void> {
    await atomically(dest, async (tmp) => {
      const sink = createWriteStream(tmp, { mode: 0o600 });
      for (const path of [this.files.output, this.files.error]) {
        if (!path) continue;
        await pipeline(createReadStream(path), sink, { end: false, signal });
        // Stryker disable next-line ConditionalExpression: a file without a final newline would glue its last line to the next file's first
        if (!(await endsWithNewline(path))) sink.write('\n');
      }
      await new Promise<void>((resolve, reject) => sink.end((err?: Error | null) => (err ? reject(err) : resolve())));
    });
  }

  /** The table as CSV, a page at a time. */
  async exportCsv(dest: string, pageSize = 1000): Promise<number> {
    const total = await this.total();
    // Through a pipeline: a file that cannot be written fails the export instead of the process.
    await atomically(dest, (tmp) => pipeline(Readable.from(this.csvPages(total, pageSize)), createWriteStream(tmp, { mode: 0o600 })));
    return total;
  }

  private async *csvPages(total: number, pageSize: number): AsyncGenerator<string> {
    yield `${CSV_HEADER}\n`;
    // Stryker disable next-line EqualityOperator: a page from the total on is empty and writes nothing
    for (let from = 0; from < total; from += pageSize) yield (await this.page(from, pageSize)).map((r) => `${csvLine(r)}\n`).join('');
  }
}

/** Writes through a temporary file, so a failed export never leaves half a file under the name asked for. */
async function atomically(dest: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${dest}.${process.pid}.tmp`;
  try {
    await write(tmp);
    await rename(tmp, dest);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * The request a result line answers, from the batch's input file: found by its custom_id while
 * streaming the file (stops at the first match; nothing else is kept).
 */
export async function findRequest(inputPath: string, customId: string, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
  // Most ids are written as JSON.stringify writes them: look for those bytes before parsing a line.
  // An id that could be escaped another way (non-ASCII, a slash) is compared on every line.
  // Stryker disable next-line ConditionalExpression,StringLiteral: without the needle every line is parsed: slower, same answer
  const needle = /^[\x20-\x7e]*$/.test(customId) && !customId.includes('/') ? Buffer.from(JSON.stringify(customId)) : undefined;
  let found: Record<string, unknown> | undefined;
  await eachLine(
    inputPath,
    ({ bytes }) => {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: skipping fewer lines only parses more of them (a line never starts with the id)
      if (needle && bytes.indexOf(needle) < 0) return;
      const parsed = parseObject(bytes);
      if ('value' in parsed && parsed.value.custom_id === customId) {
        found = parsed.value;
        return false;
      }
    },
    { signal },
  );
  return found;
}

/** The request a result line answers: the line of the batch's input file (downloaded once, kept beside its results) with its custom_id. */
export async function requestOfLine(jobs: JobsApi, batchId: string, customId: string, storage: string): Promise<Record<string, unknown> | undefined> {
  const batch = await jobs.batches.retrieve(batchId);
  return findRequest(await downloadInput(jobs.files, batchId, batch.input_file_id, storage), customId);
}
