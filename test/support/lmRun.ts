/**
 * The language model provider's call of the runner, in the shape its tests were written in: neutral
 * messages, tools and the consumer's `modelOptions`, VS Code chat's options (VSCODE_CHAT_RUN). The
 * real runner, no stand-in.
 */
import type { ApiMemory } from '../../src/chat/apiMemory';
import type { NeutralMessage, OfferedTool, ToolMode } from '../../src/chat/engine/messages';
import { VSCODE_CHAT_RUN } from '../../src/chat/engine/options';
import type { RequestReport } from '../../src/chat/engine/report';
import type { RunResult } from '../../src/chat/engine/result';
import { runChat, type RunRequest } from '../../src/chat/engine/runner';
import type { CompletedToolCall } from '../../src/chat/engine/toolCalls';
import { readModelOptions } from '../../src/chat/lm/modelOptions';
import type { ChatOptions } from '../../src/service/client';

export { ReplyFilteredError } from '../../src/chat/engine/result';

export interface LmChatInput {
  client: RunRequest['client'];
  deployment: string;
  model?: string;
  messages: readonly NeutralMessage[];
  tools?: readonly OfferedTool[];
  toolMode?: ToolMode;
  modelOptions?: Readonly<Record<string, unknown>>;
  chatOptions?: Pick<ChatOptions, 'route' | 'apiVersion'>;
  apiMemory?: ApiMemory;
  signal: AbortSignal;
  onText: (text: string) => void;
  onToolCall: (call: CompletedToolCall) => void;
  onReport?: (report: RequestReport) => void;
}

export function runLmChat(input: LmChatInput): Promise<RunResult> {
  const { modelOptions, chatOptions, ...rest } = input;
  return runChat({ ...rest, sampling: readModelOptions(modelOptions), route: chatOptions?.route, apiVersion: chatOptions?.apiVersion }, VSCODE_CHAT_RUN);
}
