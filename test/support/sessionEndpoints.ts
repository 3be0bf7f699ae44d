/**
 * The webhook endpoints a listening session manages, on the emulator through the real client:
 * each created endpoint's signing secret kept in `secrets`, as the connection store keeps it.
 */
import type { AzureOpenAIClient } from '../../src/service/client';
import type { SessionEndpoints } from '../../src/webhooks/session/listeningSession';

/** `client`: read at each call (suites make theirs in `before`); `beforeUpdate`: what a test notes first. */
export function emulatorEndpoints(client: () => AzureOpenAIClient, secrets: Map<string, string>, beforeUpdate?: () => void): SessionEndpoints {
  return {
    all: async () => {
      const all = [];
      for await (const e of client().listWebhookEndpoints()) all.push(e);
      return all;
    },
    create: async (input) => {
      const { signing_secret, ...e } = await client().createWebhookEndpoint(input);
      secrets.set(e.id, signing_secret);
      return e;
    },
    update: async (id, url) => {
      beforeUpdate?.();
      return client().updateWebhookEndpoint(id, { url });
    },
    remove: (id) => client().deleteWebhookEndpoint(id),
    secretOf: async (id) => secrets.get(id),
  };
}
