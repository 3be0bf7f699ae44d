/** What undici hands a dispatcher, read for node:http: the body's kind and the headers. */
import type * as http from 'node:http';
import type { Readable } from 'node:stream';
import { errors, type Dispatcher } from 'undici';

export function isStream(body: unknown): body is Readable {
  return typeof (body as Readable | undefined)?.pipe === 'function';
}

/** The headers as our callers give them (a record; undici's list forms are not used here), lower-cased. */
export function headerRecord(headers: Dispatcher.DispatchOptions['headers']): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  if (!headers) return out;
  if (Array.isArray(headers) || Symbol.iterator in headers) throw new errors.NotSupportedError('headers are given as a record here');
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}
