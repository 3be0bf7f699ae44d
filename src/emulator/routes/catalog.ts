/**
 * Where deployments are listed: Resource Manager (subscriptions → accounts → deployments, paged
 * with `nextLink`), the legacy data-plane list, and the v1 models list.
 */
import type { AccountConfig, DeploymentConfig, SubscriptionConfig } from '../config';
import type { Route, RouteContext } from '../router';
import { azureError, notFound, sendJson } from '../wire';
import { requireApiVersion } from './chat';

/** The authoring api-versions that still had `GET /openai/deployments`. */
const LEGACY_VERSIONS = new Set(['2022-03-01-preview', '2022-06-01-preview', '2022-12-01', '2023-03-15-preview']);

export function armApiVersion(ctx: RouteContext): void {
  if (!ctx.url.searchParams.get('api-version')) {
    throw azureError(400, 'MissingApiVersionParameter', "The api-version query parameter (?api-version=) is required for all requests.");
  }
}

/** One page of `items`, with a `nextLink` back to this emulator while more remain. */
function page<T>(ctx: RouteContext, items: T[]): void {
  armApiVersion(ctx);
  const size = ctx.state.config.armPageSize;
  const skip = Math.max(0, Number(ctx.url.searchParams.get('$skiptoken') ?? 0) || 0);
  const value = items.slice(skip, skip + size);
  const body: { value: T[]; nextLink?: string } = { value };
  if (skip + size < items.length) {
    const next = new URL(ctx.url.pathname, ctx.state.url);
    next.searchParams.set('api-version', ctx.url.searchParams.get('api-version')!);
    next.searchParams.set('$skiptoken', String(skip + size));
    body.nextLink = next.toString();
  }
  sendJson(ctx.res, 200, body, ctx.baseHeaders);
}

export function subscription(ctx: RouteContext, id: string): SubscriptionConfig {
  const sub = ctx.state.config.subscriptions.find((s) => s.subscriptionId.toLowerCase() === decodeURIComponent(id).toLowerCase());
  if (!sub) throw azureError(404, 'SubscriptionNotFound', `The subscription '${decodeURIComponent(id)}' could not be found.`);
  return sub;
}

export function findAccount(ctx: RouteContext, subId: string, rg: string, name: string): { sub: SubscriptionConfig; account: AccountConfig } {
  const sub = subscription(ctx, subId);
  const account = sub.accounts.find(
    (x) => x.name.toLowerCase() === name.toLowerCase() && x.resourceGroup.toLowerCase() === decodeURIComponent(rg).toLowerCase(),
  );
  if (!account) throw azureError(404, 'ResourceNotFound', `The Resource 'Microsoft.CognitiveServices/accounts/${name}' under resource group '${decodeURIComponent(rg)}' was not found.`);
  return { sub, account };
}

function accountId(sub: SubscriptionConfig, a: AccountConfig): string {
  return `/subscriptions/${sub.subscriptionId}/resourceGroups/${a.resourceGroup}/providers/Microsoft.CognitiveServices/accounts/${a.name}`;
}

export function accountDeployments(ctx: RouteContext, a: AccountConfig): DeploymentConfig[] {
  const all = ctx.state.config.deployments;
  return a.deployments ? all.filter((d) => a.deployments!.includes(d.name)) : all;
}

function armAccount(ctx: RouteContext, sub: SubscriptionConfig, a: AccountConfig) {
  const endpoint = `${ctx.state.url}/`;
  return {
    id: accountId(sub, a),
    name: a.name,
    type: 'Microsoft.CognitiveServices/accounts',
    kind: a.kind,
    location: a.location,
    sku: { name: 'S0' },
    properties: { endpoint, endpoints: { 'OpenAI Language Model Instance API': endpoint }, customSubDomainName: a.name, provisioningState: 'Succeeded' },
  };
}

export function armDeployment(sub: SubscriptionConfig, a: AccountConfig, d: DeploymentConfig) {
  return {
    id: `${accountId(sub, a)}/deployments/${d.name}`,
    name: d.name,
    type: 'Microsoft.CognitiveServices/accounts/deployments',
    sku: { name: d.sku, capacity: d.capacity },
    properties: {
      model: { format: 'OpenAI', name: d.model, version: d.version },
      provisioningState: d.provisioningState ?? 'Succeeded',
      rateLimits: [
        { key: 'request', renewalPeriod: 60, count: d.requestsPerMinute },
        { key: 'token', renewalPeriod: 60, count: d.tokensPerMinute },
      ],
      capabilities: { chatCompletion: 'true' },
      currentCapacity: d.capacity,
    },
  };
}

function legacyList(ctx: RouteContext): void {
  requireApiVersion(ctx);
  if (!LEGACY_VERSIONS.has(ctx.url.searchParams.get('api-version')!)) throw notFound();
  const data = ctx.state.config.deployments.map((d) => ({
    id: d.name,
    model: d.model,
    owner: 'organization-owner',
    status: 'succeeded',
    scale_settings: { scale_type: d.sku === 'Standard' ? 'standard' : 'manual', capacity: d.capacity },
    created_at: 1700000000,
    updated_at: 1700000000,
    object: 'deployment',
  }));
  sendJson(ctx.res, 200, { data, object: 'list' }, ctx.baseHeaders);
}

function models(ctx: RouteContext): void {
  const ids = [...new Set(ctx.state.config.deployments.map((d) => d.model))];
  sendJson(ctx.res, 200, { object: 'list', data: ids.map((id) => ({ id, created: 1700000000, object: 'model', owned_by: 'system' })) }, ctx.baseHeaders);
}

const SUB = '^/subscriptions/([^/]+)';
export const ACCOUNT = `${SUB}/resourceGroups/([^/]+)/providers/Microsoft\\.CognitiveServices/accounts/([^/]+)`;

export const catalogRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/subscriptions$/i,
    // Resource Manager lists the subscriptions the caller can see: none without a role.
    handler: (ctx) =>
      page(
        ctx,
        (ctx.roleless ? [] : ctx.state.config.subscriptions).map((s) => ({
          id: `/subscriptions/${s.subscriptionId}`,
          subscriptionId: s.subscriptionId,
          tenantId: s.tenantId,
          displayName: s.displayName,
          state: 'Enabled',
        })),
      ),
  },
  {
    method: 'GET',
    path: new RegExp(`${SUB}/providers/Microsoft\\.CognitiveServices/accounts$`, 'i'),
    handler: (ctx, [subId]) => {
      const sub = subscription(ctx, subId);
      page(ctx, sub.accounts.map((a) => armAccount(ctx, sub, a)));
    },
  },
  {
    method: 'GET',
    path: new RegExp(`${ACCOUNT}/deployments$`, 'i'),
    handler: (ctx, [subId, rg, name]) => {
      const { sub, account: a } = findAccount(ctx, subId, rg, name);
      page(ctx, accountDeployments(ctx, a).map((d) => armDeployment(sub, a, d)));
    },
  },
  { method: 'GET', path: /^\/openai\/deployments$/, handler: legacyList },
  { method: 'GET', path: /^\/openai\/v1\/models$/, handler: models },
];
