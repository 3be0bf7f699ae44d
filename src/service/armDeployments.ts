/**
 * Creating and deleting a deployment through Resource Manager (`PUT`/`DELETE` on
 * `{account}/deployments/{name}`): long-running, so the deployment is watched until its
 * provisioning state settles, with progress, within a bounded wait.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as l10n from '@vscode/l10n';
import { EndpointError } from './connection';
import { ServiceError } from './errors';
import type { HttpClient } from './http';
import type { Deployment } from './types';

export const DEPLOYMENTS_API_VERSION = '2024-10-01';

export interface DeploymentSpec {
  /** The model to serve: a fine-tuned model's name (`<base>.ft-<id>`), a checkpoint, or a base model. */
  model: string;
  /** `1` for a fine-tuned model. */
  version?: string;
  format?: string;
  /** `standard`, `globalstandard`, `developer`, `globalbatch`, … */
  sku: string;
  capacity: number;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Each provisioning state seen (`Creating`, `Succeeded`, …). */
  onProgress?: (state: string) => void;
  /** Wait between looks; Retry-After is honoured when the service sends it. */
  pollMs?: number;
  /** Longest wait for the deployment to settle. */
  maxWaitMs?: number;
}

const SETTLED = new Set(['succeeded', 'failed', 'canceled', 'cancelled']);
/** Deployment names Resource Manager takes: letters, digits, `-`, `_`, `.`; 2 to 64 characters. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/;

export function checkDeploymentName(name: string): string {
  if (!NAME.test(name)) throw new EndpointError(l10n.t('"{0}" cannot name a deployment: use 2 to 64 letters, digits, "-", "_" or ".", starting with a letter or digit.', name.slice(0, 80)));
  return name;
}

interface ArmDeploymentBody {
  name?: string;
  sku?: { name?: string; capacity?: number };
  properties?: { provisioningState?: string; model?: { name?: string; version?: string } };
}

/** The wait between polls, cut short by the caller's signal. */
const pause = (ms: number, host: string, signal?: AbortSignal) =>
  sleep(ms, undefined, { signal }).catch(() => {
    throw new ServiceError({ kind: 'aborted', host, cause: signal?.reason });
  });

export class ArmDeploymentsApi {
  constructor(
    private readonly http: HttpClient,
    private readonly endpoint: string,
    /** Checks an account id (see `checkAccountId`); it is appended to the management URL. */
    private readonly account: (id: string) => string,
  ) {}

  private url(accountId: string, name: string): string {
    return `${this.endpoint}${this.account(accountId)}/deployments/${encodeURIComponent(checkDeploymentName(name))}?api-version=${DEPLOYMENTS_API_VERSION}`;
  }

  private get host(): string {
    return new URL(this.endpoint).host;
  }

  /** One deployment, or undefined when Resource Manager has none by that name. */
  async get(accountId: string, name: string, signal?: AbortSignal): Promise<ArmDeploymentBody | undefined> {
    try {
      return await this.http.json<ArmDeploymentBody>({ method: 'GET', url: this.url(accountId, name), signal });
    } catch (err) {
      if (err instanceof ServiceError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** Creates (or updates) a deployment and waits until it succeeds; a PUT is safe to repeat. */
  async put(accountId: string, name: string, spec: DeploymentSpec, options: WaitOptions = {}): Promise<Deployment> {
    const body = { sku: { name: spec.sku, capacity: spec.capacity }, properties: { model: { format: spec.format ?? 'OpenAI', name: spec.model, version: spec.version ?? '1' } } };
    const first = await this.http.json<ArmDeploymentBody>({ method: 'PUT', url: this.url(accountId, name), body, signal: options.signal, idempotent: true });
    const done = await this.settle(accountId, name, first, options);
    const state = done.properties?.provisioningState ?? 'Succeeded';
    if (state.toLowerCase() !== 'succeeded') {
      const hint = l10n.t('Look at the deployment in the Azure portal (Activity log) for why, then try again.');
      throw new ServiceError({ kind: 'http', host: this.host, serviceMessage: l10n.t('the deployment "{0}" ended {1}', name, state), hint });
    }
    const model = done.properties?.model;
    const sku = { sku: done.sku?.name ?? spec.sku, capacity: done.sku?.capacity ?? spec.capacity };
    return { name, model: model?.name ?? spec.model, modelVersion: model?.version ?? spec.version, ...sku, provisioningState: state, source: 'arm' };
  }

  /** Deletes a deployment and waits until Resource Manager no longer has it. */
  async delete(accountId: string, name: string, options: WaitOptions = {}): Promise<void> {
    const res = await this.http.stream({ method: 'DELETE', url: this.url(accountId, name), signal: options.signal, idempotent: true });
    // Stryker disable next-line CallExpression: the answer has nothing to read; dumping it only frees the connection sooner
    await res.body.dump();
    const maxWaitMs = options.maxWaitMs ?? 10 * 60_000;
    const deadline = Date.now() + maxWaitMs;
    while (await this.get(accountId, name, options.signal)) {
      options.onProgress?.('Deleting');
      // Stryker disable next-line EqualityOperator: the very millisecond of the deadline decides nothing
      if (Date.now() >= deadline) throw this.tooLong(name, 'delete', maxWaitMs);
      await pause(options.pollMs ?? 2_000, this.host, options.signal);
    }
    options.onProgress?.('Deleted');
  }

  private async settle(accountId: string, name: string, first: ArmDeploymentBody, options: WaitOptions): Promise<ArmDeploymentBody> {
    const maxWaitMs = options.maxWaitMs ?? 30 * 60_000;
    const deadline = Date.now() + maxWaitMs;
    let current: ArmDeploymentBody | undefined = first;
    for (;;) {
      // An answer without a state is a finished one; no answer (404 just after the PUT) is not yet.
      const state = current ? (current.properties?.provisioningState ?? 'Succeeded') : 'Accepted';
      options.onProgress?.(state);
      if (current && SETTLED.has(state.toLowerCase())) return current;
      // Stryker disable next-line EqualityOperator: the very millisecond of the deadline decides nothing
      if (Date.now() >= deadline) throw this.tooLong(name, 'create', maxWaitMs);
      await pause(options.pollMs ?? 2_000, this.host, options.signal);
      current = await this.get(accountId, name, options.signal);
    }
  }

  /** A wait given up on: not the service's failure, so a plain error that says what to do. */
  private tooLong(name: string, action: 'create' | 'delete', waitedMs = 0): Error {
    const minutes = Math.max(1, Math.round(waitedMs / 60_000));
    return new Error(
      action === 'create'
        ? l10n.t('The deployment "{0}" was not ready after {1} min. It may still finish: refresh the deployments in a few minutes.', name, minutes)
        : l10n.t('The deployment "{0}" was not deleted after {1} min. It may still finish: refresh the deployments in a few minutes.', name, minutes),
    );
  }
}
