/** A chat streamed through the client and folded as the chat engine folds it: each piece to `onText`, the whole reply returned. */
import { ChatAccumulator, type StreamResult } from '../../src/service/chatStream';
import type { AzureOpenAIClient, ChatOptions } from '../../src/service/client';
import type { ChatRequest } from '../../src/service/types';

export async function streamChat(client: AzureOpenAIClient, req: ChatRequest, onText: (text: string) => void, options?: ChatOptions): Promise<StreamResult> {
  const into = new ChatAccumulator();
  for await (const chunk of client.streamChatCompletion(req, options)) {
    const text = into.add(chunk);
    if (text) onText(text);
  }
  return into;
}
