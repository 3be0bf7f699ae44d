/**
 * A reply sent "in the background": the service keeps working on it while the user does something
 * else. It is followed by id until it is final: polled with backoff, and looked at at once when a
 * `response.*` webhook delivery for it arrives (the listener calls `wake`).
 */
import * as l10n from '@vscode/l10n';
import type { AzureOpenAIClient } from '../../service/client';
import type { ResponseObject, ResponseStatus, Usage } from '../../service/types';
import { FINAL_STATUSES } from '../model';
import type { RunnerOptions } from './options';
import type { RunResult } from './result';
import { buildResponseRequest } from './responsesRequest';
import { profileOf, type RunRequest } from './runner';

/** Polling waits: short at first, then no more than every 5 s. */
const BACKOFF_MS = [500, 1000, 2000, 3000, 5000];
/** A bound on polls (about 2.5 hours at the longest wait), so a response never followed forever. */
const MAX_POLLS = 2000;

/**
 * Starts a background response (the panel's setting; see options.ts): built as `runChat` builds
 * it (the panel offers no tools), always stored, sent once (a 429 is the caller's to show). The
 * answer is queued, or further.
 */
export async function startBackground(request: RunRequest, options: RunnerOptions, notes: string[]): Promise<ResponseObject> {
  const c = request.continuation;
  const build = {
    deployment: request.deployment, profile: profileOf(request), messages: c?.messages ?? request.messages, previousResponseId: c?.previousResponseId,
    options: request.sampling, notes, reasoningSummary: options.reasoningSummaries,
  };
  const body = { ...buildResponseRequest(build), background: true, store: true };
  return request.client.createResponse(body, { signal: request.signal, retryRateLimits: false });
}

/** Lets a webhook delivery cut a polling wait short. */
export class Waker {
  private pending: (() => void) | undefined;

  wake(): void {
    this.pending?.();
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      // Closed already (while the last status was being shown): no wait at all.
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.pending = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: an abort fires once anyway, and `done` removes the listener
      signal.addEventListener('abort', done, { once: true });
      this.pending = done;
    });
  }
}

/**
 * Follows a response until it is final; `onStatus` hears each status seen. Returns undefined when
 * `signal` aborts (the panel closed: the response goes on and is picked up again by id).
 */
export async function followResponse(
  client: AzureOpenAIClient,
  id: string,
  signal: AbortSignal,
  onStatus: (status: ResponseStatus) => void,
  waker = new Waker(),
): Promise<ResponseObject | undefined> {
  for (let poll = 0; poll < MAX_POLLS && !signal.aborted; poll++) {
    const r = await client.getResponse(id, { signal }).catch((err: unknown) => {
      if (signal.aborted) return undefined;
      throw err;
    });
    if (!r) return undefined;
    onStatus(r.status);
    if (FINAL_STATUSES.has(r.status)) return r;
    await waker.sleep(BACKOFF_MS[Math.min(poll, BACKOFF_MS.length - 1)], signal);
  }
  if (signal.aborted) return undefined;
  throw new Error(l10n.t('The background response {0} was still not finished after {1} checks. Send the message again, or look it up later.', id, MAX_POLLS));
}

/** What a finished response says, in the shape of a streamed reply. */
export function resultOf(r: ResponseObject, latencyMs: number): RunResult {
  let content = '';
  const summaries: string[] = [];
  for (const item of r.output) {
    // Stryker disable next-line ConditionalExpression: only a message carries output_text parts
    if (item.type === 'message') {
      for (const c of item.content ?? []) {
        // Stryker disable next-line ConditionalExpression: only output_text parts of a message carry text
        if (c.type !== 'output_text') continue;
        if (typeof c.text === 'string') content += c.text;
      }
    }
    if (
      // Stryker disable next-line ConditionalExpression: only a reasoning item carries a summary
      item.type !== 'reasoning' ||
      !Array.isArray(item.summary)
    ) continue;
    for (const s of item.summary as Array<{ text?: unknown }>) if (typeof s.text === 'string') summaries.push(s.text);
  }
  const u = r.usage as (ResponseObject['usage'] & { output_tokens_details?: { reasoning_tokens?: number } }) | null;
  const usage: Usage | undefined = u
    ? {
        prompt_tokens: u.input_tokens,
        completion_tokens: u.output_tokens,
        total_tokens: u.total_tokens,
        completion_tokens_details: { reasoning_tokens: u.output_tokens_details?.reasoning_tokens ?? 0 },
      }
    : undefined;
  const incomplete = (r.incomplete_details as { reason?: string } | null | undefined)?.reason;
  const finishReason = r.status === 'completed' ? 'stop' : r.status === 'incomplete' ? (incomplete === 'content_filter' ? 'content_filter' : 'length') : null;
  return {
    content,
    usage,
    model: r.model,
    finishReason,
    latencyMs,
    stopped: r.status === 'cancelled',
    api: 'responses',
    reasoningSummary: summaries.join('\n\n') || undefined,
    responseId: r.id,
  };
}
