/**
 * Which API a request goes to, the same for both chats: the one the user chose (the panel's
 * setting), else the one the service turned out to need (apiMemory.ts), else the model's
 * preferred one among those the runner speaks.
 */
import * as l10n from '@vscode/l10n';
import type { ApiMemory } from '../apiMemory';
import type { ChatApi, ModelProfile } from '../modelProfile';

/** The APIs the runner speaks. */
export const RUNNER_APIS: readonly ChatApi[] = ['chat', 'responses'];

/** The deployment's model is not served on any API the runner speaks. */
export class NoRouteError extends Error {
  override readonly name = 'NoRouteError';
}

/** The model's preferred API if it is spoken, else another it accepts; none: not offered. */
export function apiRoute(profile: Pick<ModelProfile, 'apis' | 'preferredApi'>, speaks: readonly ChatApi[] = RUNNER_APIS): ChatApi | undefined {
  if (speaks.includes(profile.preferredApi) && profile.apis.includes(profile.preferredApi)) return profile.preferredApi;
  return profile.apis.find((api) => speaks.includes(api));
}

export interface ApiChoice {
  profile: Pick<ModelProfile, 'apis' | 'preferredApi' | 'family'>;
  /** The API the user chose, if any. */
  chosen?: ChatApi;
  memory: Pick<ApiMemory, 'get'>;
  endpoint: string;
  deployment: string;
}

export function chooseApi(c: ApiChoice): ChatApi {
  const api = c.chosen ?? c.memory.get(c.endpoint, c.deployment) ?? apiRoute(c.profile);
  // Stryker disable next-line ConditionalExpression,StringLiteral: every profile today has an API the runner speaks
  if (!api) {
    throw new NoRouteError(l10n.t('The deployment "{0}" ({1}) is not served on an API this extension speaks. Pick another deployment.', c.deployment, c.profile.family));
  }
  return api;
}
