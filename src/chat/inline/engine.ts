/**
 * One inline suggestion, from the cursor's context to the text to show: the cache first (no
 * request), then the budget (no request past it), then one request through the one chat runner
 * (source "inline" in the usage log), its answer shaped to continue the code and kept. The caller
 * cancels with the signal: the runner aborts the request, the socket closes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestReport } from '../engine/report';
import { INLINE_RUN } from '../engine/options';
import type { ReasoningEffort } from '../engine/chatRequest';
import type { RunRequest, runChat } from '../engine/runner';
import type { StreamingClient } from '../engine/streams';
import { modelProfile } from '../modelProfile';
import type { ChatRoute } from '../../service/types';
import type { InlineBudget, Pause } from './budget';
import { SuggestionCache } from './cache';
import { buildInlinePrompt, clipSuffix, type InlineContext } from './prompt';
import { shapeSuggestion } from './shape';

export interface InlineTarget {
  client: StreamingClient;
  /** The connection's id (the usage log's). */
  connection: string;
  deployment: string;
  model?: string;
  route?: ChatRoute;
  apiVersion?: string;
}

export type InlineOutcome =
  | { kind: 'suggestion'; text: string; cached: boolean }
  | { kind: 'paused'; pause: Pause }
  | { kind: 'cancelled' }
  | { kind: 'failed'; error: unknown };

/** What a reasoning model is asked to think at least: the lowest effort its family takes. */
export function lowestEffort(model: string): ReasoningEffort | undefined {
  const profile = modelProfile(model);
  if (!profile.reasoning) return undefined;
  return /^gpt-5/.test(profile.family) ? 'minimal' : 'low';
}

/** Thinking counts against the answer's cap: a reasoning model gets room for it. */
const REASONING_ROOM = 1_024;

/** How long a 429 without a retry-after pauses suggestions. */
const DEFAULT_RATE_PAUSE_MS = 60_000;

export interface InlineEngineDeps {
  run: typeof runChat;
  budget: InlineBudget;
  cache?: SuggestionCache;
  /** Every request's report (the usage log); the engine counts its tokens against the budget first. */
  onReport?: (report: RequestReport) => void;
}

/**
 * Waits the debounce before a request: true when it passed, false when `signal` aborted meanwhile
 * (the next keystroke; VS Code cancels the call before it).
 */
export async function afterDebounce(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0 || signal.aborted) return !signal.aborted;
  return sleep(ms, true, { signal }).catch(() => false);
}

/** A stream reader that hands on the complete lines received, shaped, once there is code in them. */
function firstLinesOf(ctx: InlineContext, onFirstLines: (text: string) => void): (piece: string) => void {
  let received = '';
  let done = false;
  return (piece) => {
    if (done) return;
    received += piece;
    const complete = received.slice(0, received.lastIndexOf('\n') + 1);
    const text = complete && shapeSuggestion(complete, { prefix: ctx.prefix, suffix: ctx.suffix, mode: 'multi' });
    if (!text || !text.trim()) return;
    done = true;
    onFirstLines(text);
  };
}

export class InlineEngine {
  readonly cache: SuggestionCache;

  constructor(private readonly deps: InlineEngineDeps) {
    this.cache = deps.cache ?? new SuggestionCache();
  }

  /** The cache's key: what the request depends on (open tabs aside: see cache.ts). */
  private keyOf(ctx: InlineContext, target: InlineTarget): string {
    const { connection, deployment } = target;
    return SuggestionCache.key({ connection, deployment, path: ctx.path, languageId: ctx.languageId, suffix: clipSuffix(ctx.suffix) });
  }

  /** What the cache has for the cursor, without a request (shown at once, before any debounce). */
  cached(ctx: InlineContext, target: InlineTarget): string | undefined {
    return this.cache.get(this.keyOf(ctx, target), ctx.prefix);
  }

  /**
   * What to show at the cursor: a cached rest (no request), a pause, or a new answer. A block is
   * streamed: `onFirstLines` gets its complete lines, shaped, as soon as the first one is in (the
   * editor can show them while the rest comes); the outcome is the whole block, then cached.
   */
  async suggest(ctx: InlineContext, target: InlineTarget, signal: AbortSignal, onFirstLines?: (text: string) => void): Promise<InlineOutcome> {
    const key = this.keyOf(ctx, target);
    const hit = this.cache.get(key, ctx.prefix);
    if (hit !== undefined) return { kind: 'suggestion', text: hit, cached: true };
    const pause = this.deps.budget.pause();
    if (pause) return { kind: 'paused', pause };
    if (signal.aborted) return { kind: 'cancelled' };
    const prompt = buildInlinePrompt(ctx);
    const model = target.model || target.deployment;
    const effort = lowestEffort(model);
    const request: RunRequest = {
      client: target.client,
      connection: target.connection,
      deployment: target.deployment,
      model: target.model,
      route: target.route,
      apiVersion: target.apiVersion,
      messages: prompt.messages,
      sampling: effort ? { maxTokens: prompt.maxTokens + REASONING_ROOM, reasoningEffort: effort } : { maxTokens: prompt.maxTokens, temperature: 0 },
      signal,
      onText: onFirstLines && prompt.mode === 'multi' ? firstLinesOf(ctx, onFirstLines) : () => undefined,
      onReport: (r) => this.reported(r),
    };
    this.deps.budget.request();
    let content: string;
    try {
      const result = await this.deps.run(request, INLINE_RUN);
      if (result.stopped) return { kind: 'cancelled' };
      content = result.content;
    } catch (error) {
      if (signal.aborted) return { kind: 'cancelled' };
      // Recognised by shape: the network bundle holds its own copy of ServiceError.
      const e = error as { status?: unknown; retryAfterMs?: unknown };
      if (e.status === 429) {
        this.deps.budget.rateLimited(typeof e.retryAfterMs === 'number' ? e.retryAfterMs : DEFAULT_RATE_PAUSE_MS);
        return { kind: 'paused', pause: this.deps.budget.pause()! };
      }
      return { kind: 'failed', error };
    }
    const text = shapeSuggestion(content, { prefix: ctx.prefix, suffix: ctx.suffix, mode: prompt.mode });
    this.cache.put(key, ctx.prefix, text);
    return { kind: 'suggestion', text, cached: false };
  }

  private reported(r: RequestReport): void {
    if (r.tokens) this.deps.budget.spent(r.tokens.prompt + r.tokens.completion);
    this.deps.onReport?.(r);
  }
}
