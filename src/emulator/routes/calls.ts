/**
 * Incoming calls: the emulator-only `POST /emulator/calls` rings one (and `GET` lists them), and
 * the service's control API answers it: `POST /openai/v1/realtime/calls/{call_id}/accept|reject|refer|hangup`.
 */
import type { Route, RouteContext } from '../router';
import { invalidRequest, parseJsonObject, readBody, sendJson } from '../wire';
import { isLive, moveCall, ringCall, type Call, type SipHeader } from '../jobs/calls';
import { deploymentNotFound } from './chat';

/** The control routes send a body or none (reject, hangup): none is `{}`. */
async function optionalJson(ctx: RouteContext): Promise<Record<string, unknown>> {
  const raw = await readBody(ctx.req, ctx.state.config.maxBodyBytes);
  return raw.length === 0 ? {} : parseJsonObject(ctx.req, raw);
}

function text(body: Record<string, unknown>, key: string, fallback: string): string {
  const v = body[key] ?? fallback;
  if (typeof v !== 'string' || !v.trim() || v.length > 256) throw invalidRequest(`'${key}' must be a SIP or tel URI of up to 256 characters.`, key, 'invalid_value');
  return v;
}

/** Extra SIP headers as `{name: value}` or `[{name, value}]`. */
function extraHeaders(raw: unknown): SipHeader[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.entries(raw).map(([name, value]) => ({ name, value })) : null;
  if (!list || list.length > 50) throw invalidRequest("'headers' must be up to 50 SIP headers, as {name: value} or [{name, value}].", 'headers', 'invalid_value');
  return list.map((h: { name?: unknown; value?: unknown }) => {
    if (typeof h?.name !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(h.name) || typeof h.value !== 'string' || h.value.length > 1024) {
      throw invalidRequest('Each SIP header needs a token name and a string value of up to 1024 characters.', 'headers', 'invalid_value');
    }
    return { name: h.name, value: h.value };
  });
}

async function ring(ctx: RouteContext): Promise<void> {
  const body = await optionalJson(ctx);
  const call = ringCall(
    ctx.state,
    text(body, 'from', 'sip:+15550100@emulator.invalid'),
    text(body, 'to', 'sip:proj_emulator@swedencentral.sip.ai.azure.com'),
    extraHeaders(body.headers ?? body.sip_headers),
  );
  sendJson(ctx.res, 201, { call_id: call.call_id }, ctx.baseHeaders);
}

function find(ctx: RouteContext, rawId: string): Call {
  const id = decodeURIComponent(rawId);
  const call = ctx.state.calls.get(id);
  if (!call) throw invalidRequest(`Call with id '${id}' not found.`, null, 'call_id_not_found', 404);
  // A call that is over is gone for the control API, as it is on the service's side.
  if (!isLive(call)) throw invalidRequest(`Call with id '${id}' is no longer active (it was ${call.state}).`, null, 'call_id_not_found', 404);
  return call;
}

function session(ctx: RouteContext, body: Record<string, unknown>): Record<string, unknown> {
  if (body.type !== 'realtime') throw invalidRequest("Invalid 'type': the session of an accepted call has type \"realtime\".", 'type', 'invalid_value');
  if (body.model !== undefined) {
    if (typeof body.model !== 'string') throw invalidRequest("'model' must be the name of a realtime deployment.", 'model', 'invalid_type');
    const d = ctx.state.deployment(body.model);
    if (!d) throw deploymentNotFound();
    if (!/realtime/i.test(d.model)) throw invalidRequest(`The deployment '${d.name}' (${d.model}) is not a realtime model; accept the call with a realtime deployment.`, 'model', 'invalid_value');
  }
  if (body.instructions !== undefined && typeof body.instructions !== 'string') throw invalidRequest("'instructions' must be a string.", 'instructions', 'invalid_type');
  return body;
}

async function control(ctx: RouteContext, rawId: string, action: 'accept' | 'reject' | 'refer' | 'hangup'): Promise<void> {
  const body = await optionalJson(ctx);
  const call = find(ctx, rawId);
  if ((action === 'accept' || action === 'reject') && call.state !== 'ringing') {
    throw invalidRequest(`Cannot ${action} call '${call.call_id}': it was already accepted.`, null, 'invalid_call_state', 400);
  }
  if (action === 'accept') {
    moveCall(call, 'accepted', { session: session(ctx, body) });
  } else if (action === 'reject') {
    const code = body.status_code ?? 603;
    if (typeof code !== 'number' || !Number.isInteger(code) || code < 400 || code > 699) {
      throw invalidRequest("'status_code' must be a SIP status from 400 to 699 (e.g. 486 busy, 603 decline).", 'status_code', 'invalid_value');
    }
    moveCall(call, 'rejected', { status_code: code });
  } else if (action === 'refer') {
    const target = body.target_uri;
    if (typeof target !== 'string' || !/^(tel:|sips?:)\S+$/i.test(target)) throw invalidRequest("'target_uri' must be a tel: or sip: URI (e.g. tel:+14155550123).", 'target_uri', 'invalid_value');
    moveCall(call, 'referred', { target_uri: target });
  } else {
    moveCall(call, 'ended', { end_reason: 'hangup' });
  }
  ctx.res.writeHead(200, { 'content-length': '0', ...ctx.baseHeaders }).end();
}

const CALL = '^/openai/v1/realtime/calls/([^/]+)';
export const callRoutes: Route[] = [
  { method: 'POST', path: /^\/emulator\/calls$/, handler: ring },
  { method: 'GET', path: /^\/emulator\/calls$/, handler: (ctx) => sendJson(ctx.res, 200, { object: 'list', data: [...ctx.state.calls.values()].reverse() }, ctx.baseHeaders) },
  ...(['accept', 'reject', 'refer', 'hangup'] as const).map((action): Route => ({ method: 'POST', path: new RegExp(`${CALL}/${action}$`), handler: (ctx, [id]) => control(ctx, id, action) })),
];
