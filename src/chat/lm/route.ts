/** Which API a deployment is spoken to on, before the service has said otherwise (see apiMemory.ts). */
import type { ChatApi, ModelProfile } from '../modelProfile';

/** The APIs the provider speaks. */
export const PROVIDER_APIS: readonly ChatApi[] = ['chat', 'responses'];

/** The model's preferred API if the provider speaks it, else another it accepts; none: not offered. */
export function lmRoute(profile: Pick<ModelProfile, 'apis' | 'preferredApi'>, speaks: readonly ChatApi[] = PROVIDER_APIS): ChatApi | undefined {
  if (speaks.includes(profile.preferredApi) && profile.apis.includes(profile.preferredApi)) return profile.preferredApi;
  return profile.apis.find((api) => speaks.includes(api));
}
