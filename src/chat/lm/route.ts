/** Which API a deployment is spoken to on: the one place the Responses route plugs in. */
import type { ChatApi, ModelProfile } from '../modelProfile';

/** The APIs the provider speaks today. The Responses route joins here (issue #14). */
export const PROVIDER_APIS: readonly ChatApi[] = ['chat'];

/** The model's preferred API if the provider speaks it, else another it accepts; none: not offered. */
export function lmRoute(profile: Pick<ModelProfile, 'apis' | 'preferredApi'>, speaks: readonly ChatApi[] = PROVIDER_APIS): ChatApi | undefined {
  if (speaks.includes(profile.preferredApi) && profile.apis.includes(profile.preferredApi)) return profile.preferredApi;
  return profile.apis.find((api) => speaks.includes(api));
}
