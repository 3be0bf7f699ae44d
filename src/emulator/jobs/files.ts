/**
 * The files the emulator holds: uploads (`batch`, `fine-tune`, …) and what jobs write back
 * (`batch_output`, `fine-tune-results`). JSONL is checked when a job reads it, not at upload,
 * as the service does; `jsonLines` is that reading, with errors that name the line.
 */
import { randomUUID } from 'node:crypto';
import { HttpError, nowSeconds, randomId } from '../wire';

export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'evals'] as const;

export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
  expires_at?: number;
}

export interface StoredFile {
  object: FileObject;
  data: Buffer;
}

/** 404 in the service's error shape, for a file, batch, job or call that is not there. */
export function missing(kind: string, id: string, param: string | null = null): HttpError {
  return new HttpError(404, { error: { code: 'NotFound', message: `${kind} with id '${id}' was not found.`, param, type: 'invalid_request_error' } });
}

export class FileStore {
  private readonly files = new Map<string, StoredFile>();

  add(filename: string, purpose: string, data: Buffer, expiresAfterSeconds?: number, written = false): FileObject {
    const created = nowSeconds();
    // Uploads get `file-<32 hex>`; files the service writes get `file-<uuid>`.
    const id = written ? `file-${randomUUID()}` : randomId('file-', 16);
    const object: FileObject = { id, object: 'file', bytes: data.length, created_at: created, filename, purpose, status: 'processed' };
    if (expiresAfterSeconds !== undefined) object.expires_at = created + expiresAfterSeconds;
    this.files.set(id, { object, data });
    return object;
  }

  get(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  /** Newest first. */
  list(): FileObject[] {
    return [...this.files.values()].map((f) => f.object).reverse();
  }

  delete(id: string): boolean {
    return this.files.delete(id);
  }
}

/** A JSONL line the job could not use: 1-based line number and why. */
export interface LineProblem {
  line: number;
  message: string;
}

/**
 * The file's lines as JSON objects (blank lines skipped), or the first line that is not one.
 * A leading BOM is tolerated: fine-tuning asks for one, batch samples are written without.
 */
export function jsonLines(data: Buffer): { lines: Array<{ line: number; value: Record<string, unknown> }> } | { problem: LineProblem } {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  const lines: Array<{ line: number; value: Record<string, unknown> }> = [];
  const rows = text.split(/\r?\n/);
  for (const [i, row] of rows.entries()) {
    if (!row.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch (err) {
      return { problem: { line: i + 1, message: `Line ${i + 1} is not valid JSON (${(err as Error).message}).` } };
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: { line: i + 1, message: `Line ${i + 1} is not a JSON object.` } };
    lines.push({ line: i + 1, value: value as Record<string, unknown> });
  }
  return { lines };
}
