/**
 * One line of a batch's output or error file as a row of the results table: custom_id, status,
 * tokens, the reply's first line, the error. Contents are the model's and the service's: callers
 * show them as text, never as markup.
 */
import * as l10n from '@vscode/l10n';
import { asObj, type Obj } from '../service/shapes';
import { csvField } from '../text/csv';

export interface ResultRow {
  /** Position in the table (output lines first, then error lines). */
  index: number;
  source: 'output' | 'error';
  customId: string;
  /** The HTTP status of the request, when it got one. */
  statusCode?: number;
  ok: boolean;
  inputTokens?: number;
  outputTokens?: number;
  /** The reply's first line, shortened. */
  reply: string;
  error: string;
}

const SHORT = 200;

function short(text: string): string {
  // Stryker disable next-line StringLiteral: split always gives a first piece; the fallback only satisfies the type
  const first = text.trimStart().split(/\r?\n/, 1)[0] ?? '';
  return first.length > SHORT ? `${first.slice(0, SHORT - 1)}…` : first;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The text of a chat completion or a Responses API response. */
export function replyText(body: Obj | undefined): string {
  const choice = asObj((body?.choices as unknown[] | undefined)?.[0]);
  const message = asObj(choice?.message);
  if (message) {
    if (typeof message.content === 'string' && message.content) return message.content;
    if (typeof message.refusal === 'string' && message.refusal) return message.refusal;
    const call = asObj((message.tool_calls as unknown[] | undefined)?.[0]);
    if (call) return `→ ${str(asObj(call.function)?.name)}(…)`;
    return '';
  }
  if (typeof body?.output_text === 'string') return body.output_text;
  // Stryker disable next-line ArrayDeclaration: an item in place of no output is no object: nothing is read from it
  for (const item of Array.isArray(body?.output) ? (body.output as unknown[]) : []) {
    const it = asObj(item);
    if (it?.type === 'function_call') return `→ ${str(it.name)}(…)`;
    // Stryker disable next-line ArrayDeclaration: as above, for a part in place of no content
    for (const part of Array.isArray(it?.content) ? (it.content as unknown[]) : []) {
      const p = asObj(part);
      if (p?.type === 'output_text' && typeof p.text === 'string') return p.text;
      if (p?.type === 'refusal' && typeof p.refusal === 'string') return p.refusal;
    }
  }
  return '';
}

function errorText(e: unknown): string {
  const err = asObj(e);
  if (!err) return '';
  const code = str(err.code);
  const message = str(err.message);
  return code && message ? `${code}: ${message}` : code || message;
}

/** A row from one line's bytes; a line that is not JSON is a row that says so. */
export function toRow(bytes: Buffer, index: number, source: ResultRow['source']): ResultRow {
  let line: Obj | undefined;
  try {
    line = asObj(JSON.parse(bytes.toString('utf8')));
  } catch {
    // Not JSON: no object, said below.
  }
  if (!line) return { index, source, customId: '', ok: false, reply: '', error: l10n.t('This line of the results file is not a JSON object.') };
  const response = asObj(line.response);
  const body = asObj(response?.body);
  const statusCode = num(response?.status_code);
  const usage = asObj(body?.usage);
  const error = errorText(line.error) || errorText(body?.error);
  const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300 && !error;
  return {
    index,
    source,
    customId: str(line.custom_id),
    statusCode,
    ok,
    inputTokens: num(usage?.prompt_tokens) ?? num(usage?.input_tokens),
    outputTokens: num(usage?.completion_tokens) ?? num(usage?.output_tokens),
    reply: short(replyText(body)),
    error: short(error),
  };
}

export const CSV_HEADER = 'custom_id,source,status,ok,input_tokens,output_tokens,reply,error';

export function csvLine(r: ResultRow): string {
  return [r.customId, r.source, r.statusCode, r.ok, r.inputTokens, r.outputTokens, r.reply, r.error].map(csvField).join(',');
}
