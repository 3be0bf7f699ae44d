/**
 * One usage and latency report per request the runner sends (each adapted or rate-limited resend
 * is a request of its own): who was asked, on which API, what it cost in tokens, how long it
 * took, how it ended and how much rate-limit headroom the service said was left. Never a prompt,
 * a reply or a key: only names, counts, times and statuses.
 */
import type { ChatRoute, Usage } from '../../service/types';
import type { ChatApi } from '../modelProfile';
import type { RequestSource } from './options';
import type { RateLimitHeadroom, UsageTokens } from '../../usage/record';

/** What the service counted, as the usage log keeps it: `cached` is part of `prompt`, `reasoning` part of `completion`, audio apart. */
export type TokenCounts = UsageTokens;

/** How a request ended: answered, stopped by the user, ended by the content filter, refused with 429, or any other failure. */
export type RequestOutcome = 'ok' | 'stopped' | 'content_filter' | 'rate_limited' | 'failed';

export interface RequestReport {
  source: RequestSource;
  /** The connection's id, as the caller named it. */
  connection?: string;
  deployment: string;
  /** The model that answered (as the service names it), else the deployment's model as known. */
  model?: string;
  api: ChatApi;
  /** Chat Completions' route; the Responses API has the v1 route only. */
  route: ChatRoute;
  /** When the request left (ms since the epoch). */
  startedAt: number;
  /** 1 for a reply's first request, more for a resend after an adaptation or a wait. */
  attempt: number;
  /** What the service counted; none when it said nothing (a refusal, a stop before its figures). */
  tokens?: TokenCounts;
  /** From sending to the first text, thinking or tool call. */
  firstTokenMs?: number;
  totalMs: number;
  outcome: RequestOutcome;
  /** The HTTP status of a refusal. */
  status?: number;
  /** How long the service asked to wait (a 429). */
  retryAfterMs?: number;
  /** `x-ratelimit-remaining-requests` / `-tokens` of the answer, and the `-limit-` ones, when it had them. */
  rateLimit: RateLimitHeadroom;
}

export type Headers = Record<string, string | string[] | undefined>;

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const text = Array.isArray(raw) ? raw[0] : raw;
  // Stryker disable next-line ConditionalExpression: Number('') is 0, which the regex refuses anyway
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  // Number() reads the spaces around a number as nothing.
  return Number(text);
}

const RATE_HEADERS = [
  ['remainingRequests', 'x-ratelimit-remaining-requests'],
  ['remainingTokens', 'x-ratelimit-remaining-tokens'],
  ['limitRequests', 'x-ratelimit-limit-requests'],
  ['limitTokens', 'x-ratelimit-limit-tokens'],
] as const;

/** The rate-limit headroom the service reported, with the limits when it sent them. */
export function rateLimitOf(headers: Headers | undefined): RequestReport['rateLimit'] {
  if (!headers) return {};
  const out: RequestReport['rateLimit'] = {};
  for (const [key, name] of RATE_HEADERS) {
    const v = headerNumber(headers, name);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export function tokensOf(usage: Usage | undefined): TokenCounts | undefined {
  if (!usage) return undefined;
  const counts: TokenCounts = {
    prompt: usage.prompt_tokens,
    cached: usage.prompt_tokens_details?.cached_tokens ?? 0,
    completion: usage.completion_tokens,
    reasoning: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
  const [audioIn, audioOut] = [usage.prompt_tokens_details?.audio_tokens, usage.completion_tokens_details?.audio_tokens];
  if (audioIn) counts.audioIn = audioIn;
  if (audioOut) counts.audioOut = audioOut;
  return counts;
}

/** What a failed request's error says about its end; recognised by shape (bundles may hold two copies of the class). */
export function failureOf(err: unknown): Pick<RequestReport, 'outcome' | 'status' | 'retryAfterMs'> {
  const e = (err ?? {}) as { status?: unknown; code?: unknown; retryAfterMs?: unknown; name?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const out: Pick<RequestReport, 'outcome' | 'status' | 'retryAfterMs'> = { outcome: 'failed' };
  if (status !== undefined) out.status = status;
  if (status === 429) {
    out.outcome = 'rate_limited';
    if (typeof e.retryAfterMs === 'number') out.retryAfterMs = e.retryAfterMs;
  } else if (e.code === 'content_filter' || e.name === 'ReplyFilteredError') out.outcome = 'content_filter';
  return out;
}

/** Times one request and gathers what its report needs. */
export class RequestClock {
  readonly startedAt = Date.now();
  private firstAt?: number;
  headers?: Headers;

  /** Something the user sees arrived (the first time counts). */
  firstToken(): void {
    this.firstAt ??= Date.now();
  }

  report(base: Omit<RequestReport, 'startedAt' | 'totalMs' | 'firstTokenMs' | 'rateLimit'>): RequestReport {
    const r: RequestReport = { ...base, startedAt: this.startedAt, totalMs: Date.now() - this.startedAt, rateLimit: rateLimitOf(this.headers) };
    if (this.firstAt !== undefined) r.firstTokenMs = this.firstAt - this.startedAt;
    return r;
  }
}
