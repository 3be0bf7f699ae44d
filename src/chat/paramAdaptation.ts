/**
 * How a chat request adapts to the model: the token-limit parameter its family takes, and what to
 * change when the service refuses a parameter. The chat panel's rules (src/chat/chatEngine.ts),
 * here for the language model provider, so a model behaves the same in both; the engine can call
 * these instead of its own copy once the Responses work on it has landed.
 */
import type { ChatRequest } from '../service/types';
import type { ModelProfile } from './modelProfile';

/** Reasoning models take `max_completion_tokens`; the others `max_tokens`. */
export function setTokenLimit(request: ChatRequest, maxTokens: number, profile: Pick<ModelProfile, 'reasoning'>): void {
  if (profile.reasoning) request.max_completion_tokens = maxTokens;
  else request.max_tokens = maxTokens;
}

/** What a 400 names: enough of a ServiceError, without depending on its class (bundles may hold two copies). */
export interface Refusal {
  status?: number;
  param?: string;
}

/**
 * Changes `request` the way the service asked, after it refused a parameter (HTTP 400 naming it).
 * True when the request changed and is worth sending again; a refused request did nothing, so
 * sending it again is safe — as long as nothing of a reply has arrived.
 */
export function adaptAfterRefusal(request: ChatRequest, err: Refusal): boolean {
  if (err.status !== 400) return false;
  if (err.param === 'max_tokens' && request.max_tokens !== undefined) {
    request.max_completion_tokens = request.max_tokens;
    delete request.max_tokens;
    return true;
  }
  if (err.param === 'max_completion_tokens' && request.max_completion_tokens !== undefined) {
    request.max_tokens = request.max_completion_tokens;
    delete request.max_completion_tokens;
    return true;
  }
  for (const param of ['temperature', 'top_p', 'reasoning_effort'] as const) {
    if (err.param === param && request[param] !== undefined) {
      delete request[param];
      return true;
    }
  }
  return false;
}
