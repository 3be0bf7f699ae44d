/** The emulator's world: deployments, timings, limits. A JSON config file overrides any part. */
import { readFileSync } from 'node:fs';
import type { EntraConfig } from './entra';

export interface DeploymentConfig {
  name: string;
  model: string;
  version: string;
  sku: string;
  capacity: number;
  /** Limits per rate-limit window (a minute unless `rateLimitWindowSeconds` says otherwise). */
  requestsPerMinute: number;
  tokensPerMinute: number;
  /** Set while a deployment created through Resource Manager is still being provisioned. */
  provisioningState?: 'Accepted' | 'Creating' | 'Succeeded';
}

export interface AccountConfig {
  name: string;
  resourceGroup: string;
  kind: string;
  location: string;
  /** Deployment names this account shows in Resource Manager; default: all. */
  deployments?: string[];
}

export interface SubscriptionConfig {
  subscriptionId: string;
  displayName: string;
  tenantId: string;
  accounts: AccountConfig[];
}

export interface EmulatorConfig {
  deployments: DeploymentConfig[];
  /** Resource Manager's view of the world (subscriptions → accounts). */
  subscriptions: SubscriptionConfig[];
  /** Items per page on Resource Manager lists (small values exercise `nextLink`). */
  armPageSize: number;
  /** Delay between streamed tokens, so a stream looks like a real one. */
  streamTokenDelayMs: number;
  /** Chat Completions streams: time from the headers to the first token (a model's thinking time; a slow answer to cancel). */
  firstTokenDelayMs: number;
  /** Background responses: time spent queued, then in progress. */
  responseQueuedMs: number;
  responseInProgressMs: number;
  /** Length of the rate-limit window; 60 s like the service, shorter to meet a limit sooner. */
  rateLimitWindowSeconds: number;
  /** Prompt caching: how long a prompt stays cached after its last use (the service: 5 to 10 minutes idle). */
  promptCacheSeconds: number;
  maxBodyBytes: number;
  /** Accept Entra ID access tokens from this issuer (besides the API key). */
  entra?: EntraConfig;
  /** Like a resource with `disableLocalAuth`: the API key is refused, only tokens work. */
  disableLocalAuth?: boolean;
  /** Batches and fine-tuning jobs: the time each status step takes (validating, running, …). */
  jobs: { stepMs: number };
  /** Files: the service's size limits (per upload, and for batch input). */
  files: { maxBytes: number; maxBatchBytes: number };
  /** Incoming calls: how long one rings before it ends by itself. */
  calls: { ringMs: number };
  delivery: {
    /** Attempts in all, the first included. */
    maxAttempts: number;
    /** Wait before the first retry; doubled each time. */
    retryBaseMs: number;
    timeoutMs: number;
  };
}

export const DEFAULT_CONFIG: EmulatorConfig = {
  deployments: [
    { name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 50, requestsPerMinute: 300, tokensPerMinute: 50_000 },
    { name: 'gpt-4o-mini', model: 'gpt-4o-mini', version: '2024-07-18', sku: 'Standard', capacity: 100, requestsPerMinute: 600, tokensPerMinute: 100_000 },
    { name: 'o3-mini', model: 'o3-mini', version: '2025-01-31', sku: 'GlobalStandard', capacity: 20, requestsPerMinute: 120, tokensPerMinute: 20_000 },
    { name: 'gpt-4.1-nano', model: 'gpt-4.1-nano', version: '2025-04-14', sku: 'DataZoneStandard', capacity: 10, requestsPerMinute: 60, tokensPerMinute: 10_000 },
    // Served on the Responses API only: Chat Completions refuses it, as the service does.
    { name: 'gpt-5-codex', model: 'gpt-5-codex', version: '2025-09-15', sku: 'GlobalStandard', capacity: 20, requestsPerMinute: 120, tokensPerMinute: 200_000 },
    // Batch jobs only (the service refuses live calls on it); the batches' `model` names it.
    { name: 'gpt-4o-mini-batch', model: 'gpt-4o-mini', version: '2024-07-18', sku: 'GlobalBatch', capacity: 1000, requestsPerMinute: 1_000, tokensPerMinute: 1_000_000 },
    // Answers from gpt-4.1-nano or gpt-4.1-mini by the prompt's length (modelRouter.ts); the answer's `model` says which.
    { name: 'model-router', model: 'model-router', version: '2025-05-19', sku: 'GlobalStandard', capacity: 50, requestsPerMinute: 300, tokensPerMinute: 100_000 },
    // Incoming calls are accepted with it (`model` of /realtime/calls/{id}/accept).
    { name: 'gpt-realtime', model: 'gpt-realtime', version: '2025-08-28', sku: 'GlobalStandard', capacity: 10, requestsPerMinute: 100, tokensPerMinute: 100_000 },
  ],
  subscriptions: [
    {
      subscriptionId: '00000000-0000-4000-8000-000000000001',
      displayName: 'Emulator Subscription',
      tenantId: '00000000-0000-4000-8000-0000000000aa',
      accounts: [
        { name: 'emulator-openai', resourceGroup: 'rg-emulator', kind: 'OpenAI', location: 'swedencentral' },
        { name: 'emulator-language', resourceGroup: 'rg-emulator', kind: 'TextAnalytics', location: 'swedencentral', deployments: [] },
      ],
    },
  ],
  armPageSize: 50,
  streamTokenDelayMs: 0,
  firstTokenDelayMs: 0,
  responseQueuedMs: 200,
  responseInProgressMs: 500,
  rateLimitWindowSeconds: 60,
  promptCacheSeconds: 300,
  maxBodyBytes: 4 * 1024 * 1024,
  jobs: { stepMs: 2_000 },
  files: { maxBytes: 512 * 1024 * 1024, maxBatchBytes: 200 * 1024 * 1024 },
  calls: { ringMs: 30_000 },
  delivery: { maxAttempts: 5, retryBaseMs: 1_000, timeoutMs: 10_000 },
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Merges a partial config over the defaults and checks what would break the emulator later. */
export function resolveConfig(partial: Partial<EmulatorConfig> = {}): EmulatorConfig {
  const config: EmulatorConfig = {
    ...DEFAULT_CONFIG,
    ...partial,
    delivery: { ...DEFAULT_CONFIG.delivery, ...partial.delivery },
    jobs: { ...DEFAULT_CONFIG.jobs, ...partial.jobs },
    files: { ...DEFAULT_CONFIG.files, ...partial.files },
    calls: { ...DEFAULT_CONFIG.calls, ...partial.calls },
  };
  // Resource Manager can add deployments to an account: each emulator gets its own copy.
  config.subscriptions = structuredClone(config.subscriptions);
  if (!Array.isArray(config.deployments)) throw new ConfigError('"deployments" must be a list.');
  const names = new Set<string>();
  for (const [i, d] of config.deployments.entries()) {
    if (!d || typeof d.name !== 'string' || !d.name) throw new ConfigError(`deployments[${i}] needs a "name".`);
    if (typeof d.model !== 'string' || !d.model) throw new ConfigError(`deployment "${d.name}" needs a "model".`);
    if (names.has(d.name)) throw new ConfigError(`deployment "${d.name}" appears twice.`);
    names.add(d.name);
    for (const k of ['capacity', 'requestsPerMinute', 'tokensPerMinute'] as const) {
      if (d[k] !== undefined && !(typeof d[k] === 'number' && d[k] > 0)) throw new ConfigError(`deployment "${d.name}": "${k}" must be a positive number.`);
    }
  }
  // Config files may leave out the finer details of a deployment.
  const defaults = { version: '1', sku: 'Standard', capacity: 10, requestsPerMinute: 1_000, tokensPerMinute: 1_000_000 };
  config.deployments = config.deployments.map((d) => ({ ...defaults, ...d }));
  for (const k of ['armPageSize', 'rateLimitWindowSeconds', 'maxBodyBytes'] as const) {
    if (!(typeof config[k] === 'number' && config[k] > 0)) throw new ConfigError(`"${k}" must be a positive number.`);
  }
  const timings: Array<[string, unknown, number]> = [
    ['jobs.stepMs', config.jobs.stepMs, 0],
    ['firstTokenDelayMs', config.firstTokenDelayMs, 0],
    ['promptCacheSeconds', config.promptCacheSeconds, 0],
    ['calls.ringMs', config.calls.ringMs, 1],
    ['files.maxBytes', config.files.maxBytes, 1],
    ['files.maxBatchBytes', config.files.maxBatchBytes, 1],
  ];
  for (const [k, v, min] of timings) {
    if (!(typeof v === 'number' && Number.isFinite(v) && v >= min)) throw new ConfigError(`"${k}" must be a number of at least ${min}.`);
  }
  if (config.entra !== undefined) {
    const e = config.entra as Partial<EntraConfig> | null;
    if (!e || typeof e.issuer !== 'string' || typeof e.jwksUri !== 'string') throw new ConfigError('"entra" needs "issuer" and "jwksUri".');
  }
  if (config.disableLocalAuth && !config.entra) throw new ConfigError('"disableLocalAuth" needs "entra": otherwise nothing could sign in.');
  return config;
}

export function loadConfigFile(path: string): Partial<EmulatorConfig> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`Cannot read the config file ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as Partial<EmulatorConfig>;
  } catch (err) {
    throw new ConfigError(`The config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}
