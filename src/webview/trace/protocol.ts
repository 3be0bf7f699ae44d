/**
 * The one message protocol between the trace timeline page and the extension. Both sides import
 * this file and validate what they receive with it: a message that does not parse is dropped.
 * A trace carries names, counts, times and statuses (a prompt or a reply only when the user turned
 * content capture on): the page shows all of it as text.
 */
import { isObj, isText } from '../../service/shapes';
import type { Trace, TraceSpan } from '../../trace/types';

/** Extension → page. */
export type TraceHostMessage = { type: 'trace'; trace: Trace } | { type: 'error'; text: string };

/** Page → extension. */
export type TraceViewMessage = { type: 'ready' };

/** More spans than this is not a trace of ours (a turn has tens; a batch's is capped by its builder). */
export const MAX_SPANS = 5_000;
const MAX_ATTRIBUTES = 128;
/** Captured prompts and replies can be long; anything past this is not ours. */
const MAX_VALUE = 256 * 1024;

const KINDS = ['turn', 'compare', 'batch', 'background'];
const SPAN_KINDS = ['client', 'internal', 'server'];
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isHex = (v: unknown, n: number) => typeof v === 'string' && v.length === n && /^[0-9a-f]+$/.test(v);

function isValue(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'boolean') return true;
  if (Array.isArray(v)) return v.length <= MAX_ATTRIBUTES && v.every((x) => isText(x, 4096));
  return isText(v, MAX_VALUE);
}

function isSpan(v: unknown): v is TraceSpan {
  if (!isObj(v) || !isHex(v.spanId, 16) || !(v.parentSpanId === undefined || isHex(v.parentSpanId, 16))) return false;
  if (!isText(v.name, 256) || !SPAN_KINDS.includes(v.kind as string) || !isTime(v.start) || !isTime(v.end) || v.end < v.start) return false;
  if (!(v.error === undefined || isText(v.error, 4096)) || !isObj(v.attributes)) return false;
  const entries = Object.entries(v.attributes);
  return entries.length <= MAX_ATTRIBUTES && entries.every(([k, x]) => k.length <= 256 && isValue(x));
}

export function isTrace(v: unknown): v is Trace {
  if (!isObj(v) || !isHex(v.traceId, 32) || !KINDS.includes(v.kind as string) || !isText(v.title, 256)) return false;
  if (!isTime(v.start) || !isTime(v.end) || v.end < v.start) return false;
  return Array.isArray(v.spans) && v.spans.length >= 1 && v.spans.length <= MAX_SPANS && v.spans.every(isSpan);
}

export function parseTraceHostMessage(raw: unknown): TraceHostMessage | undefined {
  if (!isObj(raw)) return undefined;
  if (raw.type === 'trace' && isTrace(raw.trace)) return { type: 'trace', trace: raw.trace };
  if (raw.type === 'error' && isText(raw.text, 4096)) return { type: 'error', text: raw.text };
  return undefined;
}

export function parseTraceViewMessage(raw: unknown): TraceViewMessage | undefined {
  return isObj(raw) && raw.type === 'ready' ? { type: 'ready' } : undefined;
}
