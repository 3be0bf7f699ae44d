/**
 * Azure Resource Manager: subscriptions → Cognitive Services accounts (OpenAI / AIServices) →
 * deployments, following `nextLink`. The management endpoint is configurable (sovereign clouds,
 * the emulator).
 */
import * as l10n from '@vscode/l10n';
import { ArmDeploymentsApi } from './armDeployments';
import { EndpointError, type AuthSource, type RetryPolicy, type Timeouts } from './connection';
import { ServiceError } from './errors';
import { HttpClient } from './http';
import type { ProxySettings } from './proxyRules';
import type { Deployment } from './types';

export const DEFAULT_MANAGEMENT_ENDPOINT = 'https://management.azure.com';
const SUBSCRIPTIONS_API_VERSION = '2022-12-01';
const COGNITIVE_API_VERSION = '2024-10-01';
const MAX_PAGES = 1000;

export interface Subscription {
  id: string;
  subscriptionId: string;
  tenantId?: string;
  displayName: string;
  state?: string;
}

export interface CognitiveAccount {
  id: string;
  name: string;
  kind: string;
  location?: string;
  resourceGroup: string;
  subscriptionId: string;
  /** The data-plane endpoint of the account: what a connection is made from. */
  endpoint?: string;
  sku?: string;
}

interface ArmPage<T> {
  value?: T[];
  nextLink?: string | null;
}

interface ArmAccount {
  id: string;
  name: string;
  kind?: string;
  location?: string;
  sku?: { name?: string };
  properties?: { endpoint?: string; endpoints?: Record<string, string>; customSubDomainName?: string };
}

interface ArmDeployment {
  name: string;
  sku?: { name?: string; capacity?: number };
  properties?: {
    model?: { format?: string; name?: string; version?: string };
    provisioningState?: string;
    rateLimits?: Array<{ key?: string; renewalPeriod?: number; count?: number }>;
  };
}

/** Kinds of account that serve Azure OpenAI deployments. */
const OPENAI_KINDS = new Set(['openai', 'aiservices']);

export class ArmClient {
  readonly endpoint: string;
  private readonly http: HttpClient;

  constructor(options: { auth: AuthSource; endpoint?: string; timeouts?: Partial<Timeouts>; retry?: Partial<RetryPolicy>; proxy?: ProxySettings }) {
    this.endpoint = (options.endpoint ?? DEFAULT_MANAGEMENT_ENDPOINT).replace(/\/+$/, '');
    this.http = new HttpClient(options.auth, options.timeouts, options.retry, options.proxy);
  }

  /** Every item of a paged ARM list. `nextLink` must stay on the management host. */
  private async all<T>(path: string, signal?: AbortSignal): Promise<T[]> {
    const items: T[] = [];
    let url: string | undefined = `${this.endpoint}${path}`;
    const origin = new URL(this.endpoint).origin;
    for (let i = 0; url && i < MAX_PAGES; i++) {
      const page: ArmPage<T> = await this.http.json<ArmPage<T>>({ method: 'GET', url, signal });
      if (!page || !Array.isArray(page.value)) throw new ServiceError({ kind: 'invalid-response', host: new URL(url).host, serviceMessage: 'expected a list with a value array' });
      items.push(...page.value);
      url = page.nextLink || undefined;
      if (url && new URL(url).origin !== origin) {
        throw new ServiceError({ kind: 'invalid-response', host: new URL(this.endpoint).host, serviceMessage: `nextLink points to another host (${new URL(url).host})` });
      }
    }
    return items;
  }

  async listSubscriptions(signal?: AbortSignal): Promise<Subscription[]> {
    const subs = await this.all<Subscription>(`/subscriptions?api-version=${SUBSCRIPTIONS_API_VERSION}`, signal);
    return subs.map((s) => ({ ...s, subscriptionId: s.subscriptionId ?? s.id.split('/').pop() ?? s.id }));
  }

  /** Accounts of kind OpenAI or AIServices in a subscription. */
  async listAccounts(subscriptionId: string, signal?: AbortSignal): Promise<CognitiveAccount[]> {
    const path = `/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.CognitiveServices/accounts?api-version=${COGNITIVE_API_VERSION}`;
    const accounts = await this.all<ArmAccount>(path, signal);
    return accounts.filter((a) => OPENAI_KINDS.has((a.kind ?? '').toLowerCase())).map((a) => toAccount(a, subscriptionId));
  }

  /** Deployments of one account, by its ARM id. */
  async listDeployments(accountId: string, signal?: AbortSignal): Promise<Deployment[]> {
    const path = `${checkAccountId(accountId)}/deployments?api-version=${COGNITIVE_API_VERSION}`;
    const deployments = await this.all<ArmDeployment>(path, signal);
    return deployments.map(toDeployment);
  }

  /** Creating and deleting deployments (long-running PUT and DELETE). */
  get deployments(): ArmDeploymentsApi {
    return new ArmDeploymentsApi(this.http, this.endpoint, checkAccountId);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** `/subscriptions/{id}/resourceGroups/{group}/providers/Microsoft.CognitiveServices/accounts/{name}`. */
const ACCOUNT_ID = /^\/subscriptions\/[0-9a-z-]{1,64}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.CognitiveServices\/accounts\/[-\w.]{1,64}$/i;

/**
 * An account id as Resource Manager writes it, and nothing else: it is appended to the
 * management URL, so anything more (`@host`, `..`, a query) could send the token elsewhere.
 */
export function checkAccountId(accountId: string): string {
  const id = accountId.trim().replace(/\/+$/, '');
  if (!ACCOUNT_ID.test(id) || id.split('/').includes('..')) {
    const form = '/subscriptions/…/resourceGroups/…/providers/Microsoft.CognitiveServices/accounts/…';
    throw new EndpointError(l10n.t('"{0}" is not an Azure OpenAI account id: expected {1}.', id.slice(0, 200), form));
  }
  return id;
}

function toAccount(a: ArmAccount, subscriptionId: string): CognitiveAccount {
  const rg = /\/resourceGroups\/([^/]+)/i.exec(a.id)?.[1] ?? '';
  const p = a.properties ?? {};
  const endpoint = p.endpoints?.['OpenAI Language Model Instance API'] ?? p.endpoint ?? (p.customSubDomainName ? `https://${p.customSubDomainName}.openai.azure.com/` : undefined);
  return { id: a.id, name: a.name, kind: a.kind ?? '', location: a.location, resourceGroup: decodeURIComponent(rg), subscriptionId, endpoint, sku: a.sku?.name };
}

/** ARM gives limits per renewal period in seconds; people think in per-minute limits. */
function perMinute(limits: NonNullable<ArmDeployment['properties']>['rateLimits'], key: string): number | undefined {
  const l = limits?.find((r) => r.key?.toLowerCase() === key);
  if (!l || typeof l.count !== 'number') return undefined;
  const period = l.renewalPeriod && l.renewalPeriod > 0 ? l.renewalPeriod : 60;
  return Math.round((l.count * 60) / period);
}

function toDeployment(d: ArmDeployment): Deployment {
  const p = d.properties ?? {};
  const rpm = perMinute(p.rateLimits, 'request');
  const tpm = perMinute(p.rateLimits, 'token');
  return {
    name: d.name,
    model: p.model?.name ?? '',
    modelVersion: p.model?.version,
    sku: d.sku?.name,
    capacity: d.sku?.capacity,
    rateLimits: rpm !== undefined || tpm !== undefined ? { requestsPerMinute: rpm, tokensPerMinute: tpm } : undefined,
    provisioningState: p.provisioningState,
    source: 'arm',
  };
}
