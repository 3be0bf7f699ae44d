/** Request reading and error answers in the service's own JSON shape. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An error the emulator answers with; thrown anywhere in a route. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: Record<string, unknown> },
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.error.message ?? status));
  }
}

/** OpenAI-style error (v1 routes): message, type, param, code. */
export function invalidRequest(message: string, param: string | null = null, code: string | null = 'invalid_value', status = 400): HttpError {
  return new HttpError(status, { error: { message, type: 'invalid_request_error', param, code } });
}

/** Azure-style error: code and message. */
export function azureError(status: number, code: string, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError(status, { error: { code, message } }, headers);
}

export const unauthorized = () =>
  azureError(
    401,
    '401',
    'Access denied due to invalid subscription key or wrong API endpoint. ' +
      'Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  );

export const notFound = () => azureError(404, '404', 'Resource not found');

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Reads the body up to `limit` bytes; past it, 413 (and the rest is not read). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      return reject(new HttpError(413, { error: { message: `The request body is ${declared} bytes; the limit is ${limit}.`, type: 'invalid_request_error', param: null, code: 'request_too_large' } }));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(new HttpError(413, { error: { message: `The request body is over the limit of ${limit} bytes.`, type: 'invalid_request_error', param: null, code: 'request_too_large' } }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a JSON object body, with the service's answers for the ways it can be wrong. */
export function parseJsonObject(req: IncomingMessage, raw: Buffer): Record<string, unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (raw.length === 0) throw invalidRequest('The request body is empty; send a JSON object.', null, 'missing_body');
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw invalidRequest(`Unsupported content type "${type}": send application/json.`, null, 'unsupported_content_type', 415);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw invalidRequest(`We could not parse the JSON body of your request (${(err as Error).message}). The body must be valid JSON.`, null, 'invalid_json');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidRequest('The request body must be a JSON object.', null, 'invalid_json');
  return value as Record<string, unknown>;
}

export const randomId = (prefix: string, bytes = 12) => prefix + randomBytes(bytes).toString('hex');

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Writes to a response, waiting for a slow reader to drain, but never for a socket that is gone. */
export async function writeOrDrain(res: ServerResponse, text: string): Promise<void> {
  if (res.write(text) || res.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
