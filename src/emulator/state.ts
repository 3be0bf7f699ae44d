/** Everything the emulator remembers while it runs. */
import type { WebhookEvent } from '../service/types';
import type { BatchObject, Call, StoredJob, StoredResponse } from './stored';
import type { DeploymentConfig, EmulatorConfig } from './config';
import { Deliverer, type Delivery } from './deliveries';
import { FileStore } from './jobs/files';
import { PromptCache } from './promptCache';
import { RateLimiter } from './rateLimiter';
import { nowSeconds, randomId } from './wire';

export interface StoredEndpoint {
  id: string;
  created_at: number;
  updated_at: number;
  name: string;
  url: string;
  event_types: string[];
  signing_secret: string;
  signing_secret_hint: string;
}

export interface EmulatorStats {
  requests: number;
  streamsCompleted: number;
  /** Streams the client closed before the end: the emulator stopped generating at once. */
  streamsAborted: number;
}

export class EmulatorState {
  readonly limits: RateLimiter;
  readonly promptCache: PromptCache;
  readonly deliverer: Deliverer;
  readonly endpoints = new Map<string, StoredEndpoint>();
  readonly responses = new Map<string, StoredResponse>();
  readonly files = new FileStore();
  readonly batches = new Map<string, BatchObject>();
  readonly fineTuning = new Map<string, StoredJob>();
  readonly calls = new Map<string, Call>();
  readonly stats: EmulatorStats = { requests: 0, streamsCompleted: 0, streamsAborted: 0 };
  /** Base URL once listening (Resource Manager returns it as the accounts' endpoint). */
  url = '';
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly config: EmulatorConfig,
    readonly log: (line: string) => void,
  ) {
    this.limits = new RateLimiter(config.rateLimitWindowSeconds * 1000);
    this.promptCache = new PromptCache(config.promptCacheSeconds * 1000);
    this.deliverer = new Deliverer(config.delivery, log, (ms, fn) => this.later(ms, fn));
  }

  deployment(name: string): DeploymentConfig | undefined {
    return this.config.deployments.find((d) => d.name === name);
  }

  streamAborted(): void {
    this.stats.streamsAborted++;
  }

  /** Emits an event to every endpoint subscribed to its type. */
  emit(type: string, data: Record<string, unknown>): { event: WebhookEvent; delivered: Promise<Delivery[]> } {
    const event: WebhookEvent = { object: 'event', id: randomId('evt_', 16), type, created_at: nowSeconds(), data };
    const targets = [...this.endpoints.values()]
      .filter((e) => e.event_types.includes(type))
      .map((e) => ({ id: e.id, url: e.url, signingSecret: e.signing_secret }));
    return { event, delivered: this.deliverer.send(event, targets) };
  }

  /** Resolves after `ms`; never, if the emulator closes first (a job just stops there). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(Math.max(0, ms), resolve));
  }

  /** A timer that is cleared when the emulator closes. */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.deliverer.close();
  }
}
