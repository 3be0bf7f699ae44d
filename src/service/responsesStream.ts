/**
 * The Responses API's event stream: SSE events in, typed events out, and a fold of them into the
 * reply a user sees (text, reasoning summary, usage with reasoning and cached tokens, final status).
 */
import { ServiceError, parseErrorBody } from './errors';
import { DONE, jsonEvents } from './jsonEvents';
import type { ResponseStreamEvent, Usage } from './types';

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Yields each event up to the response's final one. An `error` event throws a ServiceError; a body
 * that ends before a final event throws too, so a cut connection is never mistaken for a reply.
 * `lastSequence` tells a caller where to resume.
 */
export async function* readResponseStream(body: AsyncIterable<Uint8Array | string>, host: string): AsyncGenerator<ResponseStreamEvent> {
  for await (const { event, data, frame } of jsonEvents(body, host, 'event')) {
    if (frame === DONE) continue;
    if (!frame || typeof frame !== 'object' || Array.isArray(frame) || typeof (frame as { type?: unknown }).type !== 'string') {
      throw new ServiceError({ kind: 'invalid-response', host, serviceMessage: `a stream event without a type: ${data.slice(0, 120)}` });
    }
    const typed = frame as ResponseStreamEvent;
    if (typed.type === 'error' || event === 'error') {
      // `{type:'error', code, message}` or `{error:{code, message}}`: both name what went wrong.
      const f = frame as { code?: unknown; message?: unknown; error?: unknown };
      const parsed = f.error ? parseErrorBody(data) : { code: typeof f.code === 'string' ? f.code : undefined, serviceMessage: typeof f.message === 'string' ? f.message : undefined };
      throw new ServiceError({ kind: 'stream', host, ...parsed });
    }
    yield typed;
    if (FINAL_EVENTS.has(typed.type)) return;
  }
  throw new ServiceError({ kind: 'stream', host, code: 'incomplete', serviceMessage: 'the stream ended before the response was complete' });
}

/** Folds events into the reply; `add` returns which visible text an event added. */
export class ResponseAccumulator {
  id?: string;
  model?: string;
  status?: string;
  content = '';
  reasoningSummary = '';
  usage?: Usage;
  incompleteReason?: string;
  error?: { code?: string; message?: string };
  /** The last sequence number seen: where a resumed stream starts after. */
  lastSequence = -1;
  /** Function calls the model made (name and arguments), in order. */
  readonly calls: Array<{ name: string; arguments: string }> = [];

  add(ev: ResponseStreamEvent): { text?: string; reasoning?: string } {
    if (typeof ev.sequence_number === 'number') this.lastSequence = ev.sequence_number;
    if (ev.response && typeof ev.response === 'object') this.takeResponse(ev.response);
    switch (ev.type) {
      case 'response.output_text.delta':
        if (typeof ev.delta !== 'string') return {};
        this.content += ev.delta;
        return { text: ev.delta };
      case 'response.reasoning_summary_text.delta':
        if (typeof ev.delta !== 'string') return {};
        // Summaries of several parts read as paragraphs.
        if (this.reasoningSummary && ev.summary_index !== undefined && ev.summary_index > 0 && this.lastSummaryIndex !== ev.summary_index) this.reasoningSummary += '\n\n';
        this.lastSummaryIndex = ev.summary_index;
        this.reasoningSummary += ev.delta;
        return { reasoning: ev.delta };
      case 'response.output_item.done': {
        const item = ev.item as { type?: unknown; name?: unknown; arguments?: unknown } | undefined;
        if (item?.type === 'function_call' && typeof item.name === 'string') this.calls.push({ name: item.name, arguments: String(item.arguments ?? '') });
        return {};
      }
    }
    return {};
  }

  private lastSummaryIndex?: number;

  private takeResponse(r: NonNullable<ResponseStreamEvent['response']>): void {
    if (typeof r.id === 'string') this.id = r.id;
    if (typeof r.model === 'string') this.model = r.model;
    if (typeof r.status === 'string') this.status = r.status;
    const u = r.usage;
    if (u && typeof u.input_tokens === 'number' && typeof u.output_tokens === 'number') {
      this.usage = {
        prompt_tokens: u.input_tokens,
        completion_tokens: u.output_tokens,
        total_tokens: typeof u.total_tokens === 'number' ? u.total_tokens : u.input_tokens + u.output_tokens,
        completion_tokens_details: { reasoning_tokens: u.output_tokens_details?.reasoning_tokens ?? 0 },
      };
      const cached = u.input_tokens_details?.cached_tokens;
      if (cached !== undefined) this.usage.prompt_tokens_details = { cached_tokens: cached };
    }
    if (r.incomplete_details?.reason) this.incompleteReason = r.incomplete_details.reason;
    if (r.error) this.error = { code: r.error.code, message: r.error.message };
  }

  /** Chat Completions' words for how the reply ended, so both routes read the same downstream. */
  get finishReason(): string | null {
    if (this.status === 'completed') return this.calls.length ? 'tool_calls' : 'stop';
    if (this.status === 'incomplete') return this.incompleteReason === 'content_filter' ? 'content_filter' : 'length';
    return null;
  }
}
