/**
 * Which API a deployment turned out to need, learnt from the service's own refusals (a model that
 * refuses Chat Completions is served on the Responses API). Kept for the session, per resource.
 */
import type { ChatApi } from './modelProfile';

export class ApiMemory {
  private readonly learnt = new Map<string, ChatApi>();

  private key(endpoint: string, deployment: string): string {
    return `${endpoint}\n${deployment}`;
  }

  get(endpoint: string, deployment: string): ChatApi | undefined {
    return this.learnt.get(this.key(endpoint, deployment));
  }

  remember(endpoint: string, deployment: string, api: ChatApi): void {
    this.learnt.set(this.key(endpoint, deployment), api);
  }
}

/**
 * The service's answer when a model is not served on Chat Completions (codex, -pro models): the
 * request did nothing, so the same one on the Responses API is safe. Recognised by shape, since
 * bundles may hold two copies of the error class.
 */
export function refusesChat(err: unknown): boolean {
  const e = (err ?? {}) as { name?: unknown; status?: unknown; code?: unknown };
  return e.name === 'ServiceError' && e.status === 400 && e.code === 'OperationNotSupported';
}

/** The memory the chat panel and the language model provider share across its conversations. */
export const sessionApiMemory = new ApiMemory();
