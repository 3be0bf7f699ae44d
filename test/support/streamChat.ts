/** Chat stream chunks folded into the reply a user would see, for tests that read a stream whole. */
import type { AzureOpenAIClient, ChatOptions } from '../../src/service/client';
import type { ChatCompletionChunk, ChatRequest, Usage } from '../../src/service/types';

export interface StreamResult {
  content: string;
  finishReason: string | null;
  usage?: Usage;
  model?: string;
  id?: string;
}

/** Folds chunks of choice 0 into the reply a user would see. */
export class ChatAccumulator implements StreamResult {
  content = '';
  finishReason: string | null = null;
  usage?: Usage;
  model?: string;
  id?: string;

  add(chunk: ChatCompletionChunk): string {
    if (chunk.id) this.id = chunk.id;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (!choice) return '';
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const text = choice.delta?.content ?? '';
    this.content += text;
    return text;
  }
}

/** A chat streamed through the client: each piece to `onText`, the whole reply returned. */
export async function streamChat(client: AzureOpenAIClient, req: ChatRequest, onText: (text: string) => void, options?: ChatOptions): Promise<StreamResult> {
  const into = new ChatAccumulator();
  for await (const chunk of client.streamChatCompletion(req, options)) {
    const text = into.add(chunk);
    if (text) onText(text);
  }
  return into;
}
