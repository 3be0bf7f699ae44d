/**
 * Webhook endpoint management at `/openai/v1/dashboard/webhook_endpoints`, plus the emulator's
 * own routes to emit events and read deliveries back.
 */
import { isLoopbackHost } from '../../service/connection';
import { WEBHOOK_EVENT_TYPES } from '../../service/types';
import { generateSecret, secretHint } from '../../webhooks/signature';
import type { Route, RouteContext } from '../router';
import type { StoredEndpoint } from '../state';
import { invalidRequest, nowSeconds, randomId, sendJson } from '../wire';

const KNOWN_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);
const UPDATABLE = new Set(['name', 'url', 'event_types']);

function validName(v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) throw invalidRequest("'name' must be a non-empty string.", 'name');
  if (v.length > 256) throw invalidRequest("'name' must be at most 256 characters.", 'name');
  return v;
}

function validUrl(v: unknown): string {
  if (typeof v !== 'string' || !v) throw invalidRequest("'url' must be the address of your listener.", 'url');
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw invalidRequest(`'url' is not a valid URL: ${v.slice(0, 200)}`, 'url');
  }
  if (url.protocol === 'https:') return v;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return v;
  throw invalidRequest("'url' must use https:// (http:// is accepted only for loopback addresses).", 'url');
}

function validTypes(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0) throw invalidRequest("'event_types' must be a non-empty list of event types.", 'event_types');
  for (const t of v) {
    if (typeof t !== 'string' || !KNOWN_TYPES.has(t)) {
      throw invalidRequest(`Unknown event type ${JSON.stringify(t)} in 'event_types'. Known types: ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'event_types');
    }
  }
  return [...new Set(v as string[])];
}

/** The endpoint as listed: no secret, only its hint. */
function view(e: StoredEndpoint) {
  return { id: e.id, object: 'webhook.endpoint', created_at: e.created_at, updated_at: e.updated_at, name: e.name, url: e.url, event_types: e.event_types, signing_secret_hint: e.signing_secret_hint };
}

function find(ctx: RouteContext, rawId: string): StoredEndpoint {
  const id = decodeURIComponent(rawId);
  const e = ctx.state.endpoints.get(id);
  if (!e) throw invalidRequest(`No webhook endpoint found with id '${id}'.`, null, 'not_found', 404);
  return e;
}

async function create(ctx: RouteContext): Promise<void> {
  const body = await ctx.json();
  const secret = generateSecret();
  const now = nowSeconds();
  const e: StoredEndpoint = {
    id: randomId('we_'),
    created_at: now,
    updated_at: now,
    name: validName(body.name),
    url: validUrl(body.url),
    event_types: validTypes(body.event_types),
    signing_secret: secret,
    signing_secret_hint: secretHint(secret),
  };
  ctx.state.endpoints.set(e.id, e);
  // The only answer that ever carries the secret.
  sendJson(ctx.res, 200, { ...view(e), signing_secret: secret }, ctx.baseHeaders);
}

function list(ctx: RouteContext): void {
  const q = ctx.url.searchParams;
  const limitText = q.get('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest("'limit' must be an integer from 1 to 100.", 'limit');
  // Newest first; ids break ties between endpoints created in the same second.
  const all = [...ctx.state.endpoints.values()].reverse();
  let start = 0;
  const after = q.get('after');
  if (after) {
    const i = all.findIndex((e) => e.id === after);
    if (i === -1) throw invalidRequest(`'after' names an unknown webhook endpoint: ${after}.`, 'after');
    start = i + 1;
  }
  const data = all.slice(start, start + limit).map(view);
  sendJson(ctx.res, 200, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < all.length }, ctx.baseHeaders);
}

async function update(ctx: RouteContext, id: string): Promise<void> {
  const e = find(ctx, id);
  const body = await ctx.json();
  for (const key of Object.keys(body)) {
    if (key === 'signing_secret') throw invalidRequest('The signing secret cannot be updated.', 'signing_secret', 'unsupported_parameter');
    if (!UPDATABLE.has(key)) throw invalidRequest(`Unknown parameter '${key}'. Updatable: name, url, event_types.`, key, 'unknown_parameter');
  }
  // Validate everything before changing anything.
  const next = {
    name: 'name' in body ? validName(body.name) : e.name,
    url: 'url' in body ? validUrl(body.url) : e.url,
    event_types: 'event_types' in body ? validTypes(body.event_types) : e.event_types,
  };
  Object.assign(e, next, { updated_at: nowSeconds() });
  sendJson(ctx.res, 200, view(e), ctx.baseHeaders);
}

function remove(ctx: RouteContext, id: string): void {
  const e = find(ctx, id);
  ctx.state.endpoints.delete(e.id);
  sendJson(ctx.res, 200, { id: e.id, deleted: true, object: 'webhook_endpoint.deleted' }, ctx.baseHeaders);
}

/** Sends a signed test event to this endpoint only and reports its listener's answer. */
async function test(ctx: RouteContext, id: string): Promise<void> {
  const e = find(ctx, id);
  const body = await ctx.json();
  const type = body.event_type;
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) throw invalidRequest(`'event_type' must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'event_type');
  const data =
    type === 'realtime.call.incoming'
      ? { call_id: randomId('rtc_'), sip_headers: [{ name: 'From', value: 'sip:+15551230000@sip.example.com' }] }
      : { id: randomId(type.startsWith('response') ? 'resp_' : type.startsWith('batch') ? 'batch_' : 'ftjob-') };
  const event = { object: 'event' as const, id: randomId('evt_', 16), type, created_at: nowSeconds(), data };
  const [delivery] = await ctx.state.deliverer.send(event, [{ id: e.id, url: e.url, signingSecret: e.signing_secret }]);
  const status = delivery.attempts[0]?.status;
  sendJson(
    ctx.res,
    200,
    { object: 'webhook_endpoint.test', webhook_endpoint_id: e.id, event_type: type, status_code: status ?? null, success: status !== undefined && status >= 200 && status < 300 },
    ctx.baseHeaders,
  );
}

/** `POST /emulator/events {type, data}`: emit any event, e.g. a batch or fine-tuning outcome. */
async function emitEvent(ctx: RouteContext): Promise<void> {
  const body = await ctx.json();
  if (typeof body.type !== 'string' || !KNOWN_TYPES.has(body.type)) throw invalidRequest(`'type' must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'type');
  const data = body.data && typeof body.data === 'object' && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : {};
  const { event, delivered } = ctx.state.emit(body.type, data);
  const deliveries = await delivered;
  sendJson(ctx.res, 200, { event, deliveries }, ctx.baseHeaders);
}

const BASE = '^/openai/v1/dashboard/webhook_endpoints';
export const webhookRoutes: Route[] = [
  { method: 'POST', path: new RegExp(`${BASE}$`), handler: create },
  { method: 'GET', path: new RegExp(`${BASE}$`), handler: list },
  { method: 'GET', path: new RegExp(`${BASE}/([^/]+)$`), handler: (ctx, [id]) => sendJson(ctx.res, 200, view(find(ctx, id)), ctx.baseHeaders) },
  { method: 'POST', path: new RegExp(`${BASE}/([^/]+)$`), handler: (ctx, [id]) => update(ctx, id) },
  { method: 'DELETE', path: new RegExp(`${BASE}/([^/]+)$`), handler: (ctx, [id]) => remove(ctx, id) },
  { method: 'POST', path: new RegExp(`${BASE}/([^/]+)/test$`), handler: (ctx, [id]) => test(ctx, id) },
  { method: 'POST', path: /^\/emulator\/events$/, handler: emitEvent },
  { method: 'GET', path: /^\/emulator\/deliveries$/, handler: (ctx) => sendJson(ctx.res, 200, { object: 'list', data: ctx.state.deliverer.list() }, ctx.baseHeaders) },
  { method: 'GET', path: /^\/emulator\/stats$/, handler: (ctx) => sendJson(ctx.res, 200, ctx.state.stats, ctx.baseHeaders) },
];
