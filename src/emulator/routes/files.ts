/**
 * Files on `/openai/v1/files`: multipart upload, list (paged), retrieve, content and delete, with
 * the service's limits. The content is not checked here: a batch or job that uses it does that.
 */
import type { Route, RouteContext } from '../router';
import { HttpError, invalidRequest, readBody, sendJson } from '../wire';
import { UPLOAD_PURPOSES, missing, type StoredFile } from '../jobs/files';
import { listPage } from './listing';

const DAY = 86_400;
/** Azure keeps batch files 14 to 30 days; other uploads take OpenAI's 1 hour to 30 days. */
const EXPIRY_RANGE: Record<string, [number, number]> = { batch: [14 * DAY, 30 * DAY] };
const DEFAULT_RANGE: [number, number] = [3_600, 30 * DAY];

const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

function tooLarge(message: string): HttpError {
  return new HttpError(413, { error: { message, type: 'invalid_request_error', param: 'file', code: 'file_too_large' } });
}

/** The upload's form, read by the platform's own multipart parser; a malformed body is the caller's 400. */
async function readForm(raw: Buffer, contentType: string): Promise<FormData> {
  try {
    // A Buffer is such bytes; the DOM typings the tests' program adds ask for an ArrayBuffer-backed view.
    return await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw invalidRequest('The upload is not valid multipart/form-data: send the fields `file` and `purpose` as a form.', null, 'invalid_multipart');
  }
}

/** The first of `names` sent as a plain field (not a file). */
function field(form: FormData, ...names: string[]): string | undefined {
  return names.map((n) => form.get(n)).find((v) => typeof v === 'string');
}

/** `expires_after[seconds]` (the SDK) or `expires_after.seconds` (Azure's curl sample), anchored at creation. */
function expiry(form: FormData, purpose: string): number | undefined {
  const anchor = field(form, 'expires_after[anchor]', 'expires_after.anchor');
  const raw = field(form, 'expires_after[seconds]', 'expires_after.seconds');
  if (raw === undefined && anchor === undefined) return undefined;
  if (anchor !== undefined && anchor !== 'created_at') {
    throw invalidRequest(`Invalid 'expires_after.anchor': '${anchor}'. The only supported value is 'created_at'.`, 'expires_after.anchor', 'invalid_value');
  }
  const seconds = Number(raw);
  const [min, max] = EXPIRY_RANGE[purpose] ?? DEFAULT_RANGE;
  if (raw === undefined || !Number.isInteger(seconds) || seconds < min || seconds > max) {
    throw invalidRequest(`Invalid 'expires_after.seconds': expected an integer from ${min} to ${max} for purpose '${purpose}', but got '${raw ?? ''}'.`, 'expires_after.seconds', 'invalid_value');
  }
  return seconds;
}

async function upload(ctx: RouteContext): Promise<void> {
  const limits = ctx.state.config.files;
  const contentType = ctx.req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b.*\bboundary=/i.test(contentType)) {
    ctx.req.resume();
    throw invalidRequest('Upload files as multipart/form-data with the fields `file` and `purpose`.', null, 'unsupported_content_type', 415);
  }
  // The form's own overhead is small: a body far past the limit is refused before it is read.
  const raw = await readBody(ctx.req, limits.maxBytes + 64 * 1024).catch((err: unknown) => {
    throw err instanceof HttpError && err.status === 413 ? tooLarge(`The file is larger than the limit of ${mib(limits.maxBytes)} per file.`) : err;
  });
  const form = await readForm(raw, contentType);
  const purpose = field(form, 'purpose');
  if (!purpose) throw invalidRequest("Missing required parameter: 'purpose'.", 'purpose', 'missing_required_parameter');
  if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) {
    throw invalidRequest(`Invalid value for 'purpose': '${purpose}'. Supported values are: ${UPLOAD_PURPOSES.map((p) => `'${p}'`).join(', ')}.`, 'purpose', 'invalid_value');
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) throw invalidRequest("Missing required parameter: 'file'. Send the file as a form field named 'file' with a filename.", 'file', 'missing_required_parameter');
  if (file.size > limits.maxBytes) throw tooLarge(`The file is ${mib(file.size)}; the limit is ${mib(limits.maxBytes)} per file.`);
  if (purpose === 'batch' && file.size > limits.maxBatchBytes) {
    throw tooLarge(`A batch input file may be at most ${mib(limits.maxBatchBytes)}; this one is ${mib(file.size)}. Split it into several batches.`);
  }
  if (file.size === 0) throw invalidRequest('The file is empty.', 'file', 'empty_file');
  const name = (file as File).name || 'upload';
  const created = ctx.state.files.add(name, purpose, Buffer.from(await file.arrayBuffer()), expiry(form, purpose));
  sendJson(ctx.res, 200, created, ctx.baseHeaders);
}

function find(ctx: RouteContext, rawId: string): StoredFile {
  const id = decodeURIComponent(rawId);
  const f = ctx.state.files.get(id);
  if (!f) throw missing('File', id, 'file_id');
  return f;
}

function list(ctx: RouteContext): void {
  const purpose = ctx.url.searchParams.get('purpose');
  const all = ctx.state.files.list().filter((f) => !purpose || f.purpose === purpose);
  sendJson(ctx.res, 200, listPage(ctx, all, { defaultLimit: 10_000, maxLimit: 10_000, ordered: true }), ctx.baseHeaders);
}

function content(ctx: RouteContext, id: string): void {
  const f = find(ctx, id);
  ctx.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': f.data.length, ...ctx.baseHeaders });
  ctx.res.end(f.data);
}

function remove(ctx: RouteContext, id: string): void {
  const f = find(ctx, id);
  ctx.state.files.delete(f.object.id);
  sendJson(ctx.res, 200, { id: f.object.id, object: 'file', deleted: true }, ctx.baseHeaders);
}

const FILES = '^/openai/v1/files';
export const fileRoutes: Route[] = [
  { method: 'POST', path: new RegExp(`${FILES}$`), handler: upload },
  { method: 'GET', path: new RegExp(`${FILES}$`), handler: list },
  { method: 'GET', path: new RegExp(`${FILES}/([^/]+)$`), handler: (ctx, [id]) => sendJson(ctx.res, 200, find(ctx, id).object, ctx.baseHeaders) },
  { method: 'GET', path: new RegExp(`${FILES}/([^/]+)/content$`), handler: (ctx, [id]) => content(ctx, id) },
  { method: 'DELETE', path: new RegExp(`${FILES}/([^/]+)$`), handler: (ctx, [id]) => remove(ctx, id) },
];
