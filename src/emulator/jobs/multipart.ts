/**
 * Reads a `multipart/form-data` body (what file uploads send): each part's name, filename and
 * bytes. Small and strict on purpose: a malformed body is the caller's error, answered with 400.
 */
import { invalidRequest } from '../wire';

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The boundary of a multipart content type, or undefined when it is not multipart. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

function header(headers: string, name: string): string | undefined {
  const line = headers.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

function param(value: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(value) ?? new RegExp(`(?:^|;)\\s*${name}=([^;]+)`, 'i').exec(value);
  return m ? m[1].replace(/\\(.)/g, '$1').trim() : undefined;
}

const malformed = () => invalidRequest('The upload is not valid multipart/form-data: send the fields `file` and `purpose` as a form.', null, 'invalid_multipart');

export function parseMultipart(raw: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = raw.indexOf(delimiter);
  if (at < 0) throw malformed();
  // Bounded: every turn moves `at` forward past a delimiter, or ends.
  for (;;) {
    at += delimiter.length;
    if (raw.subarray(at, at + 2).toString() === '--') return parts;
    if (raw.subarray(at, at + 2).toString() !== '\r\n') throw malformed();
    at += 2;
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw malformed();
    const headers = raw.subarray(at, headEnd).toString('utf8');
    const next = raw.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next < 0) throw malformed();
    const disposition = header(headers, 'content-disposition') ?? '';
    const name = param(disposition, 'name');
    if (!name) throw malformed();
    parts.push({ name, filename: param(disposition, 'filename'), contentType: header(headers, 'content-type'), data: raw.subarray(headEnd + 4, next) });
    at = next + 2;
  }
}
