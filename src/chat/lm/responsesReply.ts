/**
 * Streams one Responses API reply to a language model consumer: text deltas as they come, each
 * function call once its item is done (whole, with parsed arguments), and the usage and model
 * from the response object the events carry. A failed or filtered response throws after what
 * arrived was reported.
 */
import { ServiceError } from '../../service/errors';
import { ResponseAccumulator } from '../../service/responsesStream';
import type { ResponseRequest } from '../../service/types';
import { ReplyFilteredError, type LmChatResult, type LmReplyTarget } from './reply';
import { completeToolCall } from './toolCalls';

export async function streamResponseReply(target: LmReplyTarget, request: ResponseRequest, result: LmChatResult, onFirstEvent: () => void): Promise<void> {
  const reply = new ResponseAccumulator();
  let calls = 0;
  for await (const ev of target.client.streamResponse(request, { signal: target.signal, retryRateLimits: false })) {
    // Stryker disable next-line BlockStatement,CallExpression: see `arrived` in lmChat.ts's adapting()
    onFirstEvent();
    const piece = reply.add(ev);
    if (piece.text) target.onText(piece.text);
    const item = ev.item;
    if (ev.type === 'response.output_item.done' && item?.type === 'function_call') {
      const call = { id: String(item.call_id ?? ''), name: String(item.name ?? ''), args: String(item.arguments ?? '') };
      target.onToolCall(completeToolCall(calls++, call));
    }
    result.model = reply.model;
    result.usage = reply.usage;
    result.finishReason = reply.finishReason;
  }
  if (reply.status === 'failed') {
    throw new ServiceError({ kind: 'stream', host: target.client.host, code: reply.error?.code ?? 'failed', serviceMessage: reply.error?.message ?? 'the response failed' });
  }
  if (reply.incompleteReason === 'content_filter') throw new ReplyFilteredError(target.deployment);
}
