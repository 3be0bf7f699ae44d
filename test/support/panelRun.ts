/**
 * The chat panel's call of the runner, in the shape the panel's tests were written in: a
 * conversation's messages and settings, the panel's options (PANEL_RUN). The real runner, no stand-in.
 */
import type { Continuation } from '../../src/chat/continuation';
import { neutralMessages } from '../../src/chat/engine/messages';
import { PANEL_RUN } from '../../src/chat/engine/options';
import type { RequestReport } from '../../src/chat/engine/report';
import type { RunResult } from '../../src/chat/engine/result';
import { runChat } from '../../src/chat/engine/runner';
import { ApiMemory } from '../../src/chat/apiMemory';
import type { ChatParams } from '../../src/chat/model';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ChatMessage } from '../../src/service/types';

export interface PanelRunInput {
  client: AzureOpenAIClient;
  deployment: string;
  model?: string;
  messages: ChatMessage[];
  params: ChatParams;
  signal: AbortSignal;
  onDelta: (text: string) => void;
  onRetryWait?: (secondsLeft: number) => void;
  maxRetryWaitMs?: number;
  onReasoning?: (text: string) => void;
  apiMemory?: ApiMemory;
  continuation?: Continuation;
  onReport?: (report: RequestReport) => void;
}

export function runPanelChat(input: PanelRunInput): Promise<RunResult> {
  const p = input.params;
  const c = input.continuation;
  return runChat(
    {
      client: input.client,
      deployment: input.deployment,
      model: input.model,
      messages: neutralMessages(input.messages),
      sampling: { temperature: p.temperature, topP: p.topP, maxTokens: p.maxTokens, reasoningEffort: p.reasoningEffort },
      api: p.api,
      route: p.route,
      apiVersion: p.apiVersion,
      continuation: c && { previousResponseId: c.previousResponseId, messages: neutralMessages(c.messages) },
      apiMemory: input.apiMemory,
      signal: input.signal,
      onText: input.onDelta,
      onReasoning: input.onReasoning,
      onRetryWait: input.onRetryWait,
      onReport: input.onReport,
    },
    { ...PANEL_RUN, maxRetryWaitMs: input.maxRetryWaitMs },
  );
}

/** One user message, sent as the panel sends it on the v1 route with no system prompt; nothing streamed is kept. */
export function panelTurn(
  client: AzureOpenAIClient,
  deployment: string,
  text: string,
  more: { model?: string; api?: ChatParams['api']; onReport?: (report: RequestReport) => void } = {},
): Promise<RunResult> {
  return runPanelChat({
    client,
    deployment,
    model: more.model,
    messages: [{ role: 'user', content: text }],
    params: { systemPrompt: '', route: 'v1', api: more.api },
    signal: new AbortController().signal,
    onDelta: () => {},
    onReport: more.onReport,
    apiMemory: new ApiMemory(),
  });
}
