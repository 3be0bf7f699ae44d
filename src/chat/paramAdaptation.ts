/**
 * How a chat request adapts to the model, on either API: the token-limit parameter its family
 * takes, and what to change when the service refuses a parameter. The one implementation the chat
 * panel's engines (chatEngine.ts, responsesEngine.ts) and the language model provider share, so a
 * model behaves the same everywhere.
 */
import * as l10n from '@vscode/l10n';
import type { ChatRequest, ResponseRequest } from '../service/types';
import type { ModelProfile } from './modelProfile';

/** The service refuses `max_output_tokens` below this. */
export const MIN_OUTPUT_TOKENS = 16;

/** Reasoning models take `max_completion_tokens`; the others `max_tokens`. */
export function setTokenLimit(request: ChatRequest, maxTokens: number, profile: Pick<ModelProfile, 'reasoning'>): void {
  if (profile.reasoning) request.max_completion_tokens = maxTokens;
  else request.max_tokens = maxTokens;
}

/** Sets `max_output_tokens`, raised to the least the Responses API takes; says so when it was raised. */
export function setOutputLimit(request: ResponseRequest, maxTokens: number): string | undefined {
  request.max_output_tokens = Math.max(maxTokens, MIN_OUTPUT_TOKENS);
  if (maxTokens < MIN_OUTPUT_TOKENS) return l10n.t('Max tokens raised from {0} to {1}, the least the Responses API takes.', maxTokens, MIN_OUTPUT_TOKENS);
  return undefined;
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
  return dropRefused(request, err.param, ['temperature', 'top_p', 'reasoning_effort']);
}

/** The same for a Responses request: sampling parameters and reasoning settings (`reasoning.effort` and the like). */
export function adaptResponseAfterRefusal(request: ResponseRequest, err: Refusal): boolean {
  if (err.status !== 400) return false;
  const param = err.param?.startsWith('reasoning') ? 'reasoning' : err.param;
  return dropRefused(request, param, ['temperature', 'top_p', 'reasoning']);
}

function dropRefused(request: Record<string, unknown>, param: string | undefined, droppable: readonly string[]): boolean {
  if (param === undefined || !droppable.includes(param) || request[param] === undefined) return false;
  delete request[param];
  return true;
}

/** What the reply says about an adaptation to a refusal of `param` (nothing for a renamed token limit). */
export function adaptationNote(param: string | undefined, deployment: string): string | undefined {
  if (param === 'temperature') return l10n.t('Temperature was left out: {0} does not take it.', deployment);
  if (param === 'top_p') return l10n.t('Top P was left out: {0} does not take it.', deployment);
  if (param?.startsWith('reasoning')) return l10n.t('Reasoning settings were left out: {0} does not take them.', deployment);
  return undefined;
}

/** Adapts `request` after a refusal and adds the note the reply shows; true when it is worth sending again. */
export function adaptNoting<R>(adapt: (request: R, err: Refusal) => boolean, request: R, err: Refusal, deployment: string, notes: string[]): boolean {
  if (!adapt(request, err)) return false;
  const note = adaptationNote(err.param, deployment);
  if (note) notes.push(note);
  return true;
}
