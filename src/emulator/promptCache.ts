/**
 * Prompt caching as the service documents it: a request whose prompt starts with the same 1,024
 * tokens or more as an earlier one, to the same deployment (and the same `prompt_cache_key`, when
 * given) within the cache time, gets that prefix billed as cached: the first 1,024 tokens, then
 * every further 128 identical ones. A hit refreshes the entry's time, as use keeps a cache warm.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export const CACHE_MIN_TOKENS = 1024;
export const CACHE_STEP_TOKENS = 128;
/** Prompts remembered at most, across deployments; the oldest go first. */
const MAX_ENTRIES = 64;

interface Entry {
  bucket: string;
  tokens: number[];
  at: number;
  /** Its retention's time, when longer than the cache's own (24h). */
  ttlMs?: number;
}

/** The tokens a cache compares: the prompt's parts in order, as one text (tools first, as the service puts them). */
export function promptTokens(parts: readonly string[]): number[] {
  return encode(parts.join('\n'));
}

/** `prompt_cache_retention` as the service takes it: how long a prompt may stay cached (24h: a day). */
export const RETENTIONS = ['in_memory', '24h'] as const;
export const DAY_MS = 24 * 3600 * 1000;

/**
 * The request's cache options, checked as the service checks them (a key that is not a string, a
 * retention it does not know: 400). The bucket a prompt is cached in, and its retention's time.
 */
export function cacheOptions(
  body: Record<string, unknown>,
  deployment: string,
  invalid: (message: string, param: string) => Error,
): { bucket: string; ttlMs?: number } {
  const key = body.prompt_cache_key;
  if (key !== undefined && key !== null && typeof key !== 'string') throw invalid("Invalid type for 'prompt_cache_key': expected a string.", 'prompt_cache_key');
  const retention = body.prompt_cache_retention;
  if (retention !== undefined && retention !== null && !RETENTIONS.includes(retention as (typeof RETENTIONS)[number])) {
    throw invalid(`Invalid value for 'prompt_cache_retention': expected one of ${RETENTIONS.map((r) => `'${r}'`).join(', ')}.`, 'prompt_cache_retention');
  }
  return { bucket: `${deployment}\n${typeof key === 'string' ? key : ''}`, ...(retention === '24h' ? { ttlMs: DAY_MS } : {}) };
}

export class PromptCache {
  private entries: Entry[] = [];

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached tokens for this prompt (0 on a miss), capped at `billed` (the prompt tokens the
   * usage reports); the prompt is remembered for the next request either way.
   */
  use(bucket: string, tokens: readonly number[], billed: number, ttlMs?: number): number {
    const now = this.now();
    this.entries = this.entries.filter((e) => now - e.at <= (e.ttlMs ?? this.ttlMs));
    let best = 0;
    let hit: Entry | undefined;
    for (const e of this.entries) {
      if (e.bucket !== bucket) continue;
      const n = commonPrefix(e.tokens, tokens);
      if (n > best) [best, hit] = [n, e];
    }
    if (hit) Object.assign(hit, { at: now }, ttlMs ? { ttlMs } : {});
    if (!hit || hit.tokens.length !== tokens.length || best !== tokens.length) {
      this.entries.push({ bucket, tokens: [...tokens], at: now, ...(ttlMs ? { ttlMs } : {}) });
      if (this.entries.length > MAX_ENTRIES) this.entries.shift();
    }
    if (best < CACHE_MIN_TOKENS) return 0;
    const counted = CACHE_MIN_TOKENS + Math.floor((best - CACHE_MIN_TOKENS) / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS;
    return Math.min(counted, billed);
  }
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
