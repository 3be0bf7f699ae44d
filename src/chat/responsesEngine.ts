/**
 * One chat reply through the Responses API, with the same rules as the Chat Completions path:
 * parameters the model refuses are dropped (and the reply says so), a 429 is waited out with a
 * countdown, nothing is retried once the stream has started, and Stop keeps what arrived.
 */
import { ServiceError } from '../service/errors';
import { ResponseAccumulator } from '../service/responsesStream';
import type { ChatMessage, ResponseContentPart, ResponseInputItem, ResponseRequest } from '../service/types';
import { RateLimitWaits } from './countdown';
import type { ModelProfile } from './modelProfile';
import { adaptNoting, adaptResponseAfterRefusal, setOutputLimit } from './paramAdaptation';
import type { RunInput, RunResult } from './chatEngine';

const textOf = (content: ChatMessage['content']) => (typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join(''));

/** A message's content as the Responses API takes it: text as is, parts (an attached image) as input parts. */
function responseContent(content: ChatMessage['content']): string | ResponseContentPart[] {
  if (typeof content === 'string') return content;
  return content.map((p): ResponseContentPart => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: p.image_url.url, detail: p.image_url.detail }));
}

/** System messages become `instructions`; the rest is the conversation, in order. */
export function toResponseInput(messages: ChatMessage[]): { instructions?: string; input: ResponseInputItem[] } {
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content));
  const input: ResponseInputItem[] = messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => ({ role: m.role as 'user' | 'assistant', content: responseContent(m.content) }));
  return { instructions: system.length ? system.join('\n\n') : undefined, input };
}

/** The conversation as input: what was said since the stored reply, or all of it. */
function setInput(req: ResponseRequest, messages: ChatMessage[], previousResponseId?: string): void {
  const { instructions, input } = toResponseInput(messages);
  // An undefined field is left out of the JSON sent, and counts as not sent when a refusal is adapted.
  req.input = input;
  req.instructions = instructions;
  req.previous_response_id = previousResponseId;
}

export function buildResponseRequest(input: RunInput, profile: ModelProfile, notes: string[]): ResponseRequest {
  const p = input.params;
  // Stored, so that the next turn can continue from it with previous_response_id.
  const req: ResponseRequest = { model: input.deployment, input: [], store: true };
  if (input.continuation) setInput(req, input.continuation.messages, input.continuation.previousResponseId);
  else setInput(req, input.messages);
  req.temperature = p.temperature;
  req.top_p = p.topP;
  if (p.maxTokens !== undefined) {
    const raised = setOutputLimit(req, p.maxTokens);
    if (raised) notes.push(raised);
  }
  // A summary is what the panel shows of a reasoning model's thinking.
  if (profile.reasoning) req.reasoning = { summary: 'auto', ...(p.reasoningEffort ? { effort: p.reasoningEffort } : {}) };
  else if (p.reasoningEffort) req.reasoning = { effort: p.reasoningEffort };
  return req;
}

export async function runResponses(input: RunInput, profile: ModelProfile, notes: string[]): Promise<RunResult> {
  const request = buildResponseRequest(input, profile, notes);
  const t0 = Date.now();
  const rateWaits = new RateLimitWaits(input);
  for (let attempt = 0; attempt < 6; attempt++) {
    const reply = new ResponseAccumulator();
    const result = (stopped: boolean): RunResult => ({
      content: reply.content,
      usage: reply.usage,
      model: reply.model,
      finishReason: reply.finishReason,
      latencyMs: Date.now() - t0,
      stopped,
      api: 'responses',
      reasoningSummary: reply.reasoningSummary || undefined,
      responseId: reply.id,
    });
    try {
      await input.client.streamResponseInto(
        request,
        (piece) => {
          if (piece.reasoning) input.onReasoning?.(piece.reasoning);
          if (piece.text) input.onDelta(piece.text);
        },
        { signal: input.signal, retryRateLimits: false },
        reply,
      );
      if (reply.status === 'failed') {
        throw new ServiceError({ kind: 'stream', host: input.client.host, code: reply.error?.code ?? 'failed', serviceMessage: reply.error?.message ?? 'the response failed' });
      }
      return result(false);
    } catch (err) {
      if (input.signal.aborted) return result(true);
      // Once an event has arrived the request is under way: never send it again.
      if (!(err instanceof ServiceError) || reply.lastSequence >= 0) throw err;
      // A parameter this model does not take: left out, and the reply says so.
      if (adaptNoting(adaptResponseAfterRefusal, request, err, input.deployment, notes)) continue;
      // The service no longer has the earlier reply (deleted, expired, another resource): send it all.
      if (request.previous_response_id && (err.param === 'previous_response_id' || err.code === 'previous_response_not_found')) {
        setInput(request, input.messages);
        continue;
      }
      const waited = await rateWaits.after(err);
      if (waited === 'stopped') return result(true);
      if (waited === 'retry') continue;
      throw err;
    }
  }
  throw new Error('The service kept rejecting the request parameters.');
}
