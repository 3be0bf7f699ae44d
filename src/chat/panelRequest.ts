/**
 * The chat panel's side of a run: its conversation turned into the runner's neutral messages,
 * with its settings and, on the Responses API, the stored reply it continues from.
 */
import { continuationOf } from './continuation';
import { requestMessages, type Conversation } from './conversation';
import { neutralMessages } from './engine/messages';
import type { RunRequest } from './engine/runner';

export type PanelRequest = Pick<RunRequest, 'deployment' | 'model' | 'messages' | 'sampling' | 'api' | 'route' | 'apiVersion' | 'continuation'>;

export function panelRequest(c: Conversation, model: string | undefined): PanelRequest {
  const p = c.params;
  const request: PanelRequest = {
    deployment: c.deployment,
    model,
    messages: neutralMessages(requestMessages(c)),
    sampling: { temperature: p.temperature, topP: p.topP, maxTokens: p.maxTokens, reasoningEffort: p.reasoningEffort },
    api: p.api,
    route: p.route,
    apiVersion: p.apiVersion,
  };
  // The prompt cache's options on the v1 route only: the dated api-versions' descriptions do not list them.
  if (p.route !== 'deployment') Object.assign(request.sampling, { promptCacheKey: p.promptCacheKey, promptCacheRetention: p.promptCacheRetention });
  const continuation = continuationOf(c);
  if (continuation) request.continuation = { previousResponseId: continuation.previousResponseId, messages: neutralMessages(continuation.messages) };
  return request;
}
