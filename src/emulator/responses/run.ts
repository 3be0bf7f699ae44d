/**
 * Generates one response: its output items and the documented event sequence, in order, with the
 * response object kept up to date as it goes (what `GET /responses/{id}` shows mid-way).
 */
import type { EmulatorState } from '../state';
import { tokenPieces } from '../responder';
import type { PlannedCall } from '../tools';
import { nowSeconds, randomId } from '../wire';
import type { Status, StoredResponse } from '../stored';

export type { Status, StoredResponse };

export const FINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'incomplete', 'cancelled']);

/** What the model will produce, decided before anything is sent. */
export interface Plan {
  /** Reasoning models: tokens spent thinking, and the summary text when one was asked for. */
  reasoning?: { tokens: number; summary: string | null };
  call?: PlannedCall;
  text: string;
  fail?: boolean;
  /** Forced incomplete (the `/incomplete` prompt), besides running out of `max_output_tokens`. */
  incomplete?: boolean;
  /** The content filter ends the reply (`/filter-stream`, `/filter protected_material_*`): the completion's results. */
  filtered?: Record<string, unknown>;
  maxOutputTokens: number | null;
  inputTokens: number;
  /** The part of the input a repeated prefix had cached (promptCache.ts). */
  cachedTokens?: number;
  /** Pad delta events with `obfuscation` (the default; `stream_options.include_obfuscation: false` turns it off). */
  obfuscate?: boolean;
}

const PAD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random characters that bring a delta event to a multiple of 16 characters, as the service pads them. */
function obfuscation(delta: string): string {
  let s = '';
  for (let i = 0, n = 16 - (delta.length % 16); i < n; i++) s += PAD[Math.floor(Math.random() * PAD.length)];
  return s;
}

export interface Timing {
  tokenDelayMs: number;
  queuedMs: number;
  inProgressMs: number;
}

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/** Cut `pieces` to `budget` tokens (null: no limit). */
function within(pieces: string[], budget: number | null): { pieces: string[]; cut: boolean } {
  if (budget === null || pieces.length <= budget) return { pieces, cut: false };
  return { pieces: pieces.slice(0, Math.max(0, budget)), cut: true };
}

/**
 * Runs the plan to a final state. `stop` ends it early (a foreground stream whose reader left);
 * a cancelled or deleted response stops at the next step.
 */
export async function runResponse(state: EmulatorState, stored: StoredResponse, plan: Plan, timing: Timing, stop: AbortSignal): Promise<void> {
  const r = stored.object;
  const log = stored.log;
  const snapshot = () => structuredClone(r);
  const halted = () => stop.aborted || r.status === 'cancelled' || stored.deleted === true;
  const pause = async (ms: number) => {
    await sleep(ms);
    return halted();
  };

  log.append('response.created', { response: snapshot() });
  if (r.background) {
    if (await pause(timing.queuedMs)) return log.end();
    r.status = 'in_progress';
  }
  log.append('response.in_progress', { response: snapshot() });
  if (r.background && (await pause(timing.inProgressMs))) return log.end();

  if (plan.fail) {
    r.status = 'failed';
    r.error = { code: 'server_error', message: 'The response failed (the emulator was asked to fail it with /fail).' };
    r.usage = usage(plan.inputTokens, 0, 0, plan.cachedTokens);
    log.append('response.failed', { response: snapshot() });
    return finish(state, stored);
  }

  let budget = plan.maxOutputTokens;
  let reasoningTokens = 0;
  let outputTokens = 0;
  let cut = false;
  const add = (item: Record<string, unknown>) => {
    r.output.push(item);
    const output_index = r.output.length - 1;
    log.append('response.output_item.added', { output_index, item: structuredClone(item) });
    return output_index;
  };
  const pad = (delta: string) => (plan.obfuscate === false ? {} : { obfuscation: obfuscation(delta) });
  const done = (output_index: number) => log.append('response.output_item.done', { output_index, item: structuredClone(r.output[output_index]) });

  if (plan.reasoning) {
    reasoningTokens = budget === null ? plan.reasoning.tokens : Math.min(plan.reasoning.tokens, budget);
    if (budget !== null) budget -= reasoningTokens;
    cut = budget !== null && budget <= 0;
    const item: Record<string, unknown> & { summary: Array<{ type: string; text: string }> } = { id: randomId('rs_'), type: 'reasoning', summary: [] };
    const index = add(item);
    if (plan.reasoning.summary) {
      const part = { type: 'summary_text', text: '' };
      item.summary.push(part);
      const ids = { item_id: item.id, output_index: index, summary_index: 0 };
      log.append('response.reasoning_summary_part.added', { ...ids, part: { ...part } });
      for (const piece of tokenPieces(plan.reasoning.summary)) {
        if (await pause(timing.tokenDelayMs)) return log.end();
        part.text += piece;
        log.append('response.reasoning_summary_text.delta', { ...ids, delta: piece, ...pad(piece) });
      }
      log.append('response.reasoning_summary_text.done', { ...ids, text: part.text });
      log.append('response.reasoning_summary_part.done', { ...ids, part: { ...part } });
    }
    done(index);
  }

  if (!cut && plan.call) {
    const item = { id: randomId('fc_'), type: 'function_call', status: 'in_progress', arguments: '', call_id: randomId('call_'), name: plan.call.name };
    const index = add(item);
    const args = within(tokenPieces(plan.call.arguments), budget);
    for (const piece of args.pieces) {
      if (await pause(timing.tokenDelayMs)) return log.end();
      item.arguments += piece;
      log.append('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: piece });
    }
    cut = args.cut;
    outputTokens += args.pieces.length;
    log.append('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
    item.status = cut ? 'incomplete' : 'completed';
    done(index);
  } else if (!cut) {
    const content = { type: 'output_text', text: '', annotations: [] as unknown[], logprobs: [] as unknown[] };
    const item = { id: randomId('msg_'), type: 'message', status: 'in_progress', role: 'assistant', content: [] as unknown[] };
    const index = add(item);
    const ids = { item_id: item.id, output_index: index, content_index: 0 };
    item.content.push(content);
    log.append('response.content_part.added', { ...ids, part: { ...content } });
    const text = within(tokenPieces(plan.text), budget);
    for (const piece of text.pieces) {
      if (await pause(timing.tokenDelayMs)) return log.end();
      content.text += piece;
      log.append('response.output_text.delta', { ...ids, delta: piece, logprobs: [], ...pad(piece) });
    }
    cut = text.cut || plan.incomplete === true || plan.filtered !== undefined;
    outputTokens += text.pieces.length;
    log.append('response.output_text.done', { ...ids, text: content.text, logprobs: [] });
    log.append('response.content_part.done', { ...ids, part: { ...content } });
    item.status = cut ? 'incomplete' : 'completed';
    done(index);
  }
  if (halted()) return log.end();

  r.usage = usage(plan.inputTokens, outputTokens + reasoningTokens, reasoningTokens, plan.cachedTokens);
  if (cut) {
    r.status = 'incomplete';
    r.incomplete_details = { reason: plan.filtered ? 'content_filter' : 'max_output_tokens' };
    // Azure names the verdict on the completion beside the reason.
    if (plan.filtered) r.content_filters = [{ blocked: true, source_type: 'completion', content_filter_results: plan.filtered }];
    log.append('response.incomplete', { response: snapshot() });
  } else {
    r.status = 'completed';
    r.completed_at = nowSeconds();
    log.append('response.completed', { response: snapshot() });
  }
  finish(state, stored);
}

function usage(input: number, output: number, reasoning: number, cached = 0) {
  return {
    input_tokens: input,
    // cache_write_tokens: the service counts prompt tokens written to an explicit cache; the emulator's is implicit and bills none.
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

/** The end of a run: the log closes, the conversation is remembered, a background response tells the webhooks. */
function finish(state: EmulatorState, stored: StoredResponse): void {
  stored.log.end();
  stored.history.push(...stored.object.output.filter((o) => o.type !== 'reasoning'));
  if (stored.object.background) state.emit(`response.${stored.object.status}`, { id: stored.object.id });
}

/** Cancels a background response that has not finished; the log ends where it was. */
export function cancelRun(state: EmulatorState, stored: StoredResponse): void {
  if (FINAL.has(stored.object.status)) return;
  stored.object.status = 'cancelled';
  stored.log.end();
  state.emit('response.cancelled', { id: stored.object.id });
}
