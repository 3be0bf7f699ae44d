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

/** The memory the chat panel shares across its conversations. */
export const sessionApiMemory = new ApiMemory();
