/**
 * One request's usage, as the usage log keeps it: who was asked, how much it took and how it
 * ended. The type has no room for a prompt, a reply or a key, and `createUsageRecord` copies the
 * known fields one by one, so whatever else the caller's object carries never reaches the disk.
 */
import type { ChatRoute } from '../service/types';

export type UsageApi = 'chat' | 'responses';
export type UsageSource = 'panel' | 'vscode-chat' | 'compare' | 'batch' | 'inline';
export const USAGE_SOURCES: readonly UsageSource[] = ['panel', 'vscode-chat', 'compare', 'batch', 'inline'];

/** How the request ended. `waitMs`: the wait the service asked for; `status`: the HTTP status, when there was one. */
export type UsageOutcome =
  | { kind: 'ok' }
  | { kind: 'stopped' }
  | { kind: 'content_filter' }
  | { kind: 'rate_limited'; waitMs?: number }
  | { kind: 'error'; status?: number };

/** Token counts as the service reports them: `cached` is part of `prompt`, `reasoning` part of `completion`. */
export interface UsageTokens {
  prompt: number;
  cached: number;
  completion: number;
  reasoning: number;
  /** An audio model's audio input and output tokens, when the service reported any. */
  audioIn?: number;
  audioOut?: number;
}

/** The `x-ratelimit-*` headers of the answer, those the service sent. */
export interface RateLimitHeadroom {
  remainingRequests?: number;
  remainingTokens?: number;
  limitRequests?: number;
  limitTokens?: number;
}

export interface UsageRecord {
  /** When the request was sent (epoch ms). */
  at: number;
  connectionId: string;
  connectionLabel: string;
  deployment: string;
  model?: string;
  modelVersion?: string;
  api: UsageApi;
  route: ChatRoute;
  source: UsageSource;
  /**
   * How many requests the record stands for, when more than one: a batch's lines are kept one
   * record per minute and outcome (tokens summed), so a 100,000-line batch does not push a
   * month of chats out of the log's caps. Absent: one request.
   */
  requests?: number;
  tokens: UsageTokens;
  /** Absent when no token arrived (an error, a refusal before the stream), or when not measured (a batch's lines). */
  firstTokenMs?: number;
  /** Absent when not measured: the service does not say how long a batch's line took. */
  totalMs?: number;
  outcome: UsageOutcome;
  rateLimit?: RateLimitHeadroom;
}

/** What the caller hands over; tokens it did not learn may be left out (counted as 0). */
export type UsageInput = Omit<UsageRecord, 'tokens'> & { tokens?: Partial<UsageTokens> };

/** Names longer than this are not ours (Azure caps deployment names at 64). */
export const MAX_NAME_LENGTH = 256;

const OUTCOMES = ['ok', 'stopped', 'content_filter', 'rate_limited', 'error'] as const;

// Stryker disable next-line ConditionalExpression: Number.isSafeInteger alone decides; typeof tells TypeScript
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isName = (v: unknown, empty = false): v is string => typeof v === 'string' && v.length <= MAX_NAME_LENGTH && (empty || v.length > 0);
// Stryker disable next-line ConditionalExpression: Number.isFinite alone decides; typeof tells TypeScript
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
const name = (v: unknown): string | undefined => (typeof v === 'string' && v ? v.slice(0, MAX_NAME_LENGTH) : undefined);

/** A count of requests worth writing: 2 or more (one is the default, left out). */
function requestsOf(n: unknown): number | undefined {
  const c = count(n);
  return c !== undefined && c > 1 ? c : undefined;
}

function outcomeOf(o: UsageOutcome): UsageOutcome {
  if (o.kind === 'rate_limited') return { kind: 'rate_limited', waitMs: count(o.waitMs) };
  if (o.kind === 'error') return { kind: 'error', status: count(o.status) };
  return { kind: o.kind };
}

function headroomOf(r: RateLimitHeadroom | undefined): RateLimitHeadroom | undefined {
  if (!r) return undefined;
  const out: RateLimitHeadroom = {
    remainingRequests: count(r.remainingRequests),
    remainingTokens: count(r.remainingTokens),
    limitRequests: count(r.limitRequests),
    limitTokens: count(r.limitTokens),
  };
  const any = out.remainingRequests !== undefined || out.remainingTokens !== undefined || out.limitRequests !== undefined || out.limitTokens !== undefined;
  return any ? out : undefined;
}

/**
 * The record to store, built field by field in one fixed order (the order `parseUsageLine` reads
 * fastest). Numbers are rounded to whole milliseconds and tokens; names are cut to MAX_NAME_LENGTH.
 */
export function createUsageRecord(input: UsageInput): UsageRecord {
  const t = input.tokens ?? {};
  return {
    at: count(input.at) ?? 0,
    connectionId: name(input.connectionId) ?? '?',
    connectionLabel: typeof input.connectionLabel === 'string' ? input.connectionLabel.slice(0, MAX_NAME_LENGTH) : '',
    deployment: name(input.deployment) ?? '?',
    model: name(input.model),
    modelVersion: name(input.modelVersion),
    api: input.api === 'responses' ? 'responses' : 'chat',
    route: input.route === 'deployment' ? 'deployment' : 'v1',
    source: USAGE_SOURCES.includes(input.source) ? input.source : 'panel',
    requests: requestsOf(input.requests),
    tokens: {
      ...{ prompt: count(t.prompt) ?? 0, cached: count(t.cached) ?? 0, completion: count(t.completion) ?? 0, reasoning: count(t.reasoning) ?? 0 },
      ...audioOf(t),
    },
    firstTokenMs: count(input.firstTokenMs),
    totalMs: count(input.totalMs),
    outcome: outcomeOf(input.outcome),
    rateLimit: headroomOf(input.rateLimit),
  };
}

/** The line the log stores: JSON without the fields left undefined. */
export function serializeUsageRecord(record: UsageRecord): string {
  return JSON.stringify(record);
}

/** A stored outcome's kind is known and its numbers are counts. */
function outcomeValid(o: unknown): boolean {
  // A string or a number has no `kind` either.
  const { kind, waitMs, status } = (o ?? {}) as Record<string, unknown>;
  if (!OUTCOMES.includes(kind as UsageOutcome['kind'])) return false;
  if (kind === 'rate_limited') return waitMs === undefined || isCount(waitMs);
  return kind !== 'error' || status === undefined || isCount(status);
}

/** Stored headroom is absent, or an object whose numbers are counts. */
function headroomValid(r: unknown): boolean {
  if (r === undefined) return true;
  const keys = ['remainingRequests', 'remainingTokens', 'limitRequests', 'limitTokens'] as const;
  return !!r && typeof r === 'object' && !keys.some((k) => (r as Record<string, unknown>)[k] !== undefined && !isCount((r as Record<string, unknown>)[k]));
}

/** The audio counts that are there and more than none: a record without audio keeps no field for it. */
function audioOf(t: { audioIn?: unknown; audioOut?: unknown }): Pick<UsageTokens, 'audioIn' | 'audioOut'> {
  const [audioIn, audioOut] = [count(t.audioIn), count(t.audioOut)];
  return { ...(audioIn ? { audioIn } : {}), ...(audioOut ? { audioOut } : {}) };
}

/** A stored record checked field by field (unknown fields dropped), or undefined when it is not one. */
export function validateUsageRecord(value: unknown): UsageRecord | undefined {
  // Anything but an object fails the first check below: a number has no `at`.
  const v = (value ?? {}) as Record<string, unknown>;
  const t = (v.tokens ?? {}) as Record<string, unknown>;
  if (!isCount(v.at) || !isName(v.connectionId) || !isName(v.connectionLabel, true) || !isName(v.deployment)) return undefined;
  if ((v.model !== undefined && !isName(v.model)) || (v.modelVersion !== undefined && !isName(v.modelVersion))) return undefined;
  if ((v.api !== 'chat' && v.api !== 'responses') || (v.route !== 'v1' && v.route !== 'deployment')) return undefined;
  if (!USAGE_SOURCES.includes(v.source as UsageSource)) return undefined;
  if (v.requests !== undefined && !(isCount(v.requests) && v.requests > 1)) return undefined;
  if (!isCount(t.prompt) || !isCount(t.cached) || !isCount(t.completion) || !isCount(t.reasoning)) return undefined;
  if ((t.audioIn !== undefined && !isCount(t.audioIn)) || (t.audioOut !== undefined && !isCount(t.audioOut))) return undefined;
  if ((v.firstTokenMs !== undefined && !isCount(v.firstTokenMs)) || (v.totalMs !== undefined && !isCount(v.totalMs))) return undefined;
  if (!outcomeValid(v.outcome) || !headroomValid(v.rateLimit)) return undefined;
  // Every field checked: building the record keeps each as it is and drops the unknown ones.
  return createUsageRecord(v as unknown as UsageInput);
}

/** One line of the log as a record, or undefined for a torn or foreign line. */
export function parseUsageLine(line: string): UsageRecord | undefined {
  try {
    return validateUsageRecord(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/**
 * Token counts from the service's `usage` object, of either API: Chat Completions (prompt_tokens,
 * completion_tokens and their details) or Responses (input_tokens, output_tokens and theirs).
 * Counts it does not find are left out.
 */
export function tokensFromServiceUsage(usage: unknown): Partial<UsageTokens> {
  const u = (usage ?? {}) as Record<string, unknown>;
  const detail = (key: string, field: string) => (u[key] as Record<string, unknown> | null | undefined)?.[field];
  const chat = u.prompt_tokens !== undefined || u.completion_tokens !== undefined;
  const tokens: Partial<UsageTokens> = {
    prompt: count(chat ? u.prompt_tokens : u.input_tokens),
    cached: count(chat ? detail('prompt_tokens_details', 'cached_tokens') : detail('input_tokens_details', 'cached_tokens')),
    completion: count(chat ? u.completion_tokens : u.output_tokens),
    reasoning: count(chat ? detail('completion_tokens_details', 'reasoning_tokens') : detail('output_tokens_details', 'reasoning_tokens')),
    audioIn: count(chat ? detail('prompt_tokens_details', 'audio_tokens') : undefined),
    audioOut: count(chat ? detail('completion_tokens_details', 'audio_tokens') : undefined),
  };
  return Object.fromEntries(Object.entries(tokens).filter(([, v]) => v !== undefined));
}
