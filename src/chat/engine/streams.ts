/**
 * One request's stream on each API, read into the same Reply: text and a reasoning summary as
 * they arrive, each tool call once it is whole, then usage, the model that answered and how the
 * reply ended. A failed response throws after what arrived was reported; a reply the content
 * filter ended is marked `filtered`, for the runner to say so.
 */
import type { AzureOpenAIClient, ChatOptions } from '../../service/client';
import { readFilterResults, readFilterVerdicts, type FilterVerdict } from '../../service/contentFilter';
import { ServiceError } from '../../service/errors';
import { ResponseAccumulator } from '../../service/responsesStream';
import type { ChatRequest, ResponseRequest, Usage } from '../../service/types';
import type { Headers } from './report';
import { ToolCallAccumulator, completeToolCall, type CompletedToolCall } from './toolCalls';

/** What the runner asks of a client (`createResponse`: a background reply). */
export type StreamingClient = Pick<AzureOpenAIClient, 'streamChatCompletion' | 'streamResponse' | 'createResponse' | 'endpoint' | 'host'>;

/** Where a reply's pieces go as they arrive. */
export interface ReplySink {
  onText: (text: string) => void;
  onReasoning?: (text: string) => void;
  onToolCall: (call: CompletedToolCall) => void;
}

/** What one request got back. */
export class Reply {
  content = '';
  reasoningSummary = '';
  usage?: Usage;
  model?: string;
  finishReason: string | null = null;
  responseId?: string;
  /** Something arrived: the request is under way and is never sent again. */
  arrived = false;
  /** The content filter ended the reply (with the verdicts that blocked it, if named). */
  filtered?: FilterVerdict[];
  /** Every verdict worth telling, once each (the service repeats a choice's results on every chunk). */
  verdicts: FilterVerdict[] = [];

  noteVerdicts(found: readonly FilterVerdict[]): void {
    for (const v of found) {
      if (!this.verdicts.some((o) => o.key === v.key && o.where === v.where && o.filtered === v.filtered && o.severity === v.severity)) this.verdicts.push(v);
    }
  }
}

export interface StreamCall {
  client: StreamingClient;
  signal: AbortSignal;
  sink: ReplySink;
  reply: Reply;
  onHeaders: (status: number, headers: Headers) => void;
}

export async function streamChatReply(call: StreamCall, request: ChatRequest, route: Pick<ChatOptions, 'route' | 'apiVersion'>): Promise<void> {
  const { reply, sink } = call;
  const calls = new ToolCallAccumulator();
  const options: ChatOptions = { ...route, signal: call.signal, retryRateLimits: false, onHeaders: call.onHeaders };
  for await (const chunk of call.client.streamChatCompletion(request, options)) {
    // Stryker disable next-line BooleanLiteral: an error after the first chunk has no HTTP status, so neither adapting nor waiting takes it anyway; the flag keeps it so
    reply.arrived = true;
    if (chunk.model) reply.model = chunk.model;
    if (chunk.usage) reply.usage = chunk.usage;
    reply.noteVerdicts(readFilterVerdicts(chunk));
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (!choice) continue;
    const text = choice.delta?.content;
    if (text) {
      reply.content += text;
      sink.onText(text);
    }
    calls.add(choice.delta?.tool_calls);
    if (choice.finish_reason) {
      reply.finishReason = choice.finish_reason;
      if (choice.finish_reason === 'content_filter') reply.filtered = readFilterResults(choice.content_filter_results, 'reply').filter((v) => v.filtered);
      // Whole calls go out as soon as the model says it is done with them.
      calls.take().forEach(sink.onToolCall);
    }
  }
  calls.take().forEach(sink.onToolCall);
}

export async function streamResponsesReply(call: StreamCall, request: ResponseRequest): Promise<void> {
  const { reply, sink } = call;
  const acc = new ResponseAccumulator();
  let calls = 0;
  for await (const ev of call.client.streamResponse(request, { signal: call.signal, retryRateLimits: false, onHeaders: call.onHeaders })) {
    reply.arrived = true;
    const piece = acc.add(ev);
    if (ev.response) reply.noteVerdicts(readFilterVerdicts(ev.response));
    if (piece.reasoning) sink.onReasoning?.(piece.reasoning);
    if (piece.text) sink.onText(piece.text);
    const item = ev.item;
    if (ev.type === 'response.output_item.done' && item?.type === 'function_call') {
      sink.onToolCall(completeToolCall(calls++, { id: String(item.call_id ?? ''), name: String(item.name ?? ''), args: String(item.arguments ?? '') }));
    }
    const { content, reasoningSummary, model, finishReason } = acc;
    Object.assign(reply, { content, reasoningSummary, model, finishReason, responseId: acc.id, usage: acc.usage });
  }
  if (acc.status === 'failed') {
    throw new ServiceError({ kind: 'stream', host: call.client.host, code: acc.error?.code ?? 'failed', serviceMessage: acc.error?.message ?? 'the response failed' });
  }
  if (acc.incompleteReason === 'content_filter') reply.filtered = reply.verdicts.filter((v) => v.filtered);
}
