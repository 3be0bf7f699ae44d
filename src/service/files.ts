/**
 * Files on `/openai/v1/files`: an upload streamed from disk as multipart (never read whole into
 * memory), paged lists, and content streamed to a file that appears only once complete.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from './errors';
import type { HttpClient } from './http';
import { pageQuery, toFile, toPage, type FileObject, type Page } from './jobTypes';

export type UploadPurpose = 'batch' | 'fine-tune' | 'assistants' | 'evals';

export interface UploadOptions {
  purpose: UploadPurpose;
  /** The name the service keeps; default: the file's own name. */
  filename?: string;
  /** Seconds after upload when the service deletes it (batch files: 14 to 30 days on Azure). */
  expiresAfterSeconds?: number;
  /** Bytes of the file sent so far, and its size. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/** A file name that cannot break the multipart header it goes into. */
function safeName(name: string): string {
  // Stryker disable next-line StringLiteral: the fallback only names a file whose name was all quotes and line breaks
  return name.replace(/["\r\n\\]/g, '_') || 'upload.jsonl';
}

/** The file being uploaded could not be read: the user's disk, not the network, so said as such. */
export class FileReadError extends Error {
  constructor(path: string, cause: NodeJS.ErrnoException) {
    super(l10n.t('Could not read "{0}" ({1}): choose a file this workbench can read.', basename(path), cause.code ?? cause.message), { cause });
  }
}

/** A multipart body: the form fields, then the file read from disk as it is sent. */
function multipart(path: string, size: number, fields: Array<[string, string]>, filename: string, onProgress?: (sent: number, total: number) => void) {
  const boundary = `----aoai-workbench-${randomBytes(12).toString('hex')}`;
  const head = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  const fileHead = Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName(filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const open = (): Readable => {
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sent += chunk.length;
        onProgress?.(sent, size);
        done(null, chunk);
      },
    });
    const out = new PassThrough();
    out.write(fileHead);
    // Stryker disable ObjectLiteral,BooleanLiteral: the 'end' handler, added before the pipe's own, writes the tail before any end the pipe would make
    createReadStream(path)
      .on('error', (err) => out.destroy(new FileReadError(path, err)))
      .pipe(counter)
      .on('end', () => out.end(tail))
      .pipe(out, { end: false });
    // Stryker restore ObjectLiteral,BooleanLiteral
    return out;
  };
  return { contentType: `multipart/form-data; boundary=${boundary}`, length: fileHead.length + size + tail.length, open };
}

export class FilesApi {
  constructor(
    private readonly http: HttpClient,
    private readonly base: string,
    private readonly host: string,
  ) {}

  private url(path = ''): string {
    return `${this.base}/files${path}`;
  }

  /** Uploads a file from disk. Not sent twice: a failed upload may still have made a file. */
  async upload(path: string, options: UploadOptions): Promise<FileObject> {
    const { size } = await stat(path);
    const fields: Array<[string, string]> = [['purpose', options.purpose]];
    if (options.expiresAfterSeconds !== undefined) fields.push(['expires_after[anchor]', 'created_at'], ['expires_after[seconds]', String(options.expiresAfterSeconds)]);
    const upload = multipart(path, size, fields, options.filename ?? basename(path), options.onProgress);
    try {
      return toFile(await this.http.json({ method: 'POST', url: this.url(), upload, signal: options.signal }), this.host);
    } catch (err) {
      if (err instanceof ServiceError && err.cause instanceof FileReadError) throw err.cause;
      if (!(err instanceof ServiceError && err.mayHaveActed)) throw err;
      throw err.withHint(l10n.t('The file may have been uploaded all the same: look for it in the list of files before uploading it again.'));
    }
  }

  async listPage(params: { after?: string; limit?: number; purpose?: string } = {}, signal?: AbortSignal): Promise<Page<FileObject>> {
    const qs = pageQuery({ after: params.after, limit: params.limit, extra: { purpose: params.purpose } });
    return toPage(await this.http.json({ method: 'GET', url: this.url(qs), signal }), this.host, toFile, params.after);
  }

  async retrieve(id: string, signal?: AbortSignal): Promise<FileObject> {
    return toFile(await this.http.json({ method: 'GET', url: this.url(`/${encodeURIComponent(id)}`), signal }), this.host);
  }

  async delete(id: string, signal?: AbortSignal): Promise<void> {
    await this.http.json({ method: 'DELETE', url: this.url(`/${encodeURIComponent(id)}`), signal, idempotent: true });
  }

  /**
   * Streams a file's content to `dest`: written beside it under a temporary name and renamed when
   * complete, so a cut-off download never passes for the whole file. Returns the bytes written.
   */
  async download(id: string, dest: string, options: { onProgress?: (received: number, total?: number) => void; signal?: AbortSignal } = {}): Promise<number> {
    const res = await this.http.stream({ method: 'GET', url: this.url(`/${encodeURIComponent(id)}/content`), signal: options.signal, accept: '*/*' });
    const raw = res.headers['content-length'];
    // Stryker disable next-line Regex: undici refuses an answer whose content-length is not digits before it gets here
    const total = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : undefined;
    const part = `${dest}.${randomBytes(4).toString('hex')}.part`;
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        options.onProgress?.(received, total);
        done(null, chunk);
      },
    });
    try {
      const file = createWriteStream(part, { mode: 0o600 });
      // Stryker disable next-line ObjectLiteral: the request's own signal aborts the body too; the pipeline's is belt and braces
      await pipeline(res.body, counter, file, { signal: options.signal });
      await rename(part, dest);
      return received;
    } catch (cause) {
      // The pipeline has destroyed the body and the file already.
      await rm(part, { force: true });
      if ((cause as NodeJS.ErrnoException).path === part) {
        // Stryker disable next-line StringLiteral: a file system error with a path always has a code
        const code = (cause as NodeJS.ErrnoException).code ?? '';
        throw new Error(l10n.t('Could not save the file to "{0}" ({1}): check that its folder exists and can be written.', dest, code), { cause });
      }
      throw this.http.toError(cause, this.host, options);
    }
  }
}
