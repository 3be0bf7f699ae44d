/**
 * The one message protocol between the compare page and the extension. Both sides import this
 * file and validate everything they receive with it: a message that does not parse is dropped.
 * Replies are model output: the page shows them as text or through the chat's Markdown renderer.
 */
import { isNum, isObj, isStr, type Obj } from '../../chat/model';
import type { ColumnFailureKind, ColumnResult } from '../../chat/compare/figures';
import type { ColumnSummary, Stat } from '../../chat/compare/figures';

/** A column's heading: the deployment and where it is. */
export interface ColumnHead {
  id: string;
  label: string;
  detail: string;
}

/** The panel's system prompt and parameters (prefilled from the chat panel used last). */
export interface CompareSettings {
  systemPrompt: string;
  temperature?: number;
  maxTokens?: number;
}

export interface Chip {
  id: string;
  kind: 'selection' | 'file' | 'image';
  name: string;
}

export const MAX_RUNS = 20;

/** Extension → page. */
export type CompareHostMessage =
  | { type: 'init'; columns: ColumnHead[]; settings: CompareSettings; busy: boolean }
  | { type: 'roundStarted'; round: number; of: number }
  | { type: 'delta'; id: string; text: string }
  | { type: 'column'; column: ColumnResult }
  | { type: 'roundEnded' }
  | { type: 'summary'; summaries: ColumnSummary[] }
  | { type: 'busy'; busy: boolean }
  | { type: 'attachments'; items: Chip[]; imageInput: boolean };

/** Page → extension. */
export type CompareViewMessage =
  | { type: 'ready' }
  | { type: 'send'; text: string; settings: CompareSettings; runs: number }
  | { type: 'stop' }
  | { type: 'export' }
  | { type: 'continueInChat'; id: string }
  /** Opens the column's trace (its last round's) on the timeline page. */
  | { type: 'showTrace'; id: string }
  | { type: 'attach'; kind: Chip['kind'] }
  | { type: 'removeAttachment'; id: string }
  | { type: 'copyCode'; code: string }
  | { type: 'insertCode'; code: string }
  | { type: 'openLink'; href: string };

const ID = 300;
const optNum = (v: unknown, min: number, max: number) => v === undefined || (isNum(v) && v >= min && v <= max);
const KINDS: readonly Chip['kind'][] = ['selection', 'file', 'image'];
const FAILURES: readonly ColumnFailureKind[] = ['rate_limited', 'content_filter', 'refused', 'failed'];

export function parseSettings(v: unknown): CompareSettings | undefined {
  if (!isObj(v) || !isStr(v.systemPrompt, 100_000) || !optNum(v.temperature, 0, 2) || !optNum(v.maxTokens, 1, 1_000_000)) return undefined;
  const s: CompareSettings = { systemPrompt: v.systemPrompt };
  if (v.temperature !== undefined) s.temperature = v.temperature as number;
  if (v.maxTokens !== undefined) s.maxTokens = Math.floor(v.maxTokens as number);
  return s;
}

export function parseCompareViewMessage(v: unknown): CompareViewMessage | undefined {
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'ready':
    case 'stop':
    case 'export':
      return { type: v.type };
    case 'send': {
      const settings = parseSettings(v.settings);
      const runs = v.runs;
      if (!isStr(v.text) || !v.text.trim() || !settings || !Number.isInteger(runs) || (runs as number) < 1 || (runs as number) > MAX_RUNS) return undefined;
      return { type: 'send', text: v.text, settings, runs: runs as number };
    }
    case 'continueInChat':
    case 'showTrace':
    case 'removeAttachment':
      return isStr(v.id, ID) && v.id ? { type: v.type, id: v.id } : undefined;
    case 'attach':
      return KINDS.includes(v.kind as Chip['kind']) ? { type: 'attach', kind: v.kind as Chip['kind'] } : undefined;
    case 'copyCode':
    case 'insertCode':
      return isStr(v.code) ? { type: v.type, code: v.code } : undefined;
    case 'openLink':
      return isStr(v.href, 8192) ? { type: 'openLink', href: v.href } : undefined;
  }
  return undefined;
}

const isHead = (v: unknown): v is ColumnHead => isObj(v) && isStr(v.id, ID) && isStr(v.label, ID) && isStr(v.detail, 1000);
const optNumber = (v: unknown) => v === undefined || isNum(v);
const isTokens = (v: unknown) =>
  v === undefined || (isObj(v) && ['prompt', 'cached', 'completion', 'reasoning'].every((k) => isNum(v[k])) && [v.audioIn, v.audioOut].every(optNumber));

function isFailure(v: unknown): boolean {
  if (v === undefined) return true;
  return isObj(v) && FAILURES.includes(v.kind as ColumnFailureKind) && isStr(v.message, 10_000) && optNumber(v.status) && optNumber(v.retryAt);
}

export function isColumn(v: unknown): v is ColumnResult {
  if (!isObj(v) || !isStr(v.id, ID) || !isStr(v.content)) return false;
  if (!['ok', 'stopped', 'failed'].includes(v.outcome as string)) return false;
  if (!(v.finishReason === null || isStr(v.finishReason, 100)) || !(v.model === undefined || isStr(v.model, ID))) return false;
  if (!(v.traceId === undefined || isStr(v.traceId, 64))) return false;
  if (![v.firstTokenMs, v.totalMs, v.tokensPerSecond, v.costUsd].every(optNumber) || !isNum(v.totalMs) || !isTokens(v.tokens)) return false;
  return Array.isArray(v.notes) && v.notes.every((n) => isStr(n, 10_000)) && isFailure(v.failure);
}

const isStat = (v: unknown): v is Stat | undefined => v === undefined || (isObj(v) && isNum(v.median) && isNum(v.min) && isNum(v.max));

function isSummary(v: unknown): v is ColumnSummary {
  const s = v as Obj;
  if (!isObj(v) || !isStr(s.id, ID) || !isNum(s.answered) || !isNum(s.rounds)) return false;
  return [s.firstTokenMs, s.totalMs, s.tokensPerSecond, s.completionTokens, s.costUsd].every(isStat);
}

const isChip = (v: unknown): v is Chip => isObj(v) && isStr(v.id, ID) && KINDS.includes(v.kind as Chip['kind']) && isStr(v.name, 1000);

export function parseCompareHostMessage(v: unknown): CompareHostMessage | undefined {
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'init': {
      const settings = parseSettings(v.settings);
      return Array.isArray(v.columns) && v.columns.every(isHead) && settings ? { type: 'init', columns: v.columns, settings, busy: v.busy === true } : undefined;
    }
    case 'roundStarted':
      return isNum(v.round) && isNum(v.of) ? { type: 'roundStarted', round: v.round, of: v.of } : undefined;
    case 'delta':
      return isStr(v.id, ID) && isStr(v.text) ? { type: 'delta', id: v.id, text: v.text } : undefined;
    case 'column':
      return isColumn(v.column) ? { type: 'column', column: v.column } : undefined;
    case 'roundEnded':
      return { type: 'roundEnded' };
    case 'summary':
      return Array.isArray(v.summaries) && v.summaries.every(isSummary) ? { type: 'summary', summaries: v.summaries } : undefined;
    case 'busy':
      return { type: 'busy', busy: v.busy === true };
    case 'attachments':
      return Array.isArray(v.items) && v.items.every(isChip) ? { type: 'attachments', items: v.items, imageInput: v.imageInput === true } : undefined;
  }
  return undefined;
}
