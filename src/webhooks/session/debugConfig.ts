/**
 * The "Azure OpenAI Webhooks" debug configuration (launch.json), checked before anything starts:
 * like `stripe listen --forward-to`, a session listens behind a tunnel, points an endpoint at
 * itself and forwards verified deliveries to the app being debugged, and undoes it all at the end.
 */
import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '../../service/types';
import type { TunnelProviderId } from '../../tunnels/tunnel';
import { isLoopbackUrl } from '../send/forwardUrl';
import { checkRoutes, type Routes } from '../send/routes';

export const DEBUG_TYPE = 'azure-openai-webhooks';

const TUNNELS = ['none', 'manual', 'localtunnel', 'cloudflared', 'ngrok', 'devtunnel'] as const;

/** The events a session subscribes a new endpoint to when the configuration names none. */
export const DEFAULT_DEBUG_EVENTS = ['response.completed', 'response.failed', 'response.cancelled', 'response.incomplete'];

export interface WebhookDebugConfig {
  name: string;
  /** The app's webhook URL. */
  forwardTo: string;
  /** A connection's label or endpoint; none: the only connection there is. */
  connection?: string;
  /** An existing endpoint to point at the listener for the session (its URL is put back after). */
  endpoint?: string;
  eventTypes: string[];
  /** none: the tunnel setting (a local service needs none). */
  tunnel?: TunnelProviderId | 'none';
  /** Per-event routes, as the user setting holds them (taken before `forwardTo`; loopback only). */
  routes?: Routes;
}

export type Checked = { ok: true; config: WebhookDebugConfig } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A port alone means the app on this machine at /webhook. */
function forwardUrl(value: unknown): string | string[] {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536) return `http://localhost:${value}/webhook`;
  // Number() and new URL() both ignore surrounding spaces.
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return forwardUrl(Number(value));
  if (typeof value !== 'string' || !value.trim()) return [l10n.t('"{0}" is missing: your app\'s webhook URL (e.g. "{1}"), or its port.', 'forwardTo', 'http://localhost:3000/webhook')];
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    /* said below */
  }
  return [l10n.t('"{0}" must be an http:// or https:// URL, or a port: "{1}" is neither.', 'forwardTo', value)];
}

/** Checks a launch configuration; the error says what to change in launch.json. */
export function checkDebugConfig(raw: unknown): Checked {
  if (!isObject(raw)) return { ok: false, error: l10n.t('The debug configuration is not an object.') };
  const forward = forwardUrl(raw.forwardTo);
  if (Array.isArray(forward)) return { ok: false, error: forward[0] };
  for (const key of ['connection', 'endpoint'] as const) {
    if (raw[key] !== undefined && (typeof raw[key] !== 'string' || !raw[key].trim())) return { ok: false, error: l10n.t('"{0}" must be a non-empty string.', key) };
  }
  let eventTypes = DEFAULT_DEBUG_EVENTS;
  if (raw.eventTypes !== undefined) {
    const known = new Set<string>(WEBHOOK_EVENT_TYPES);
    if (!Array.isArray(raw.eventTypes) || raw.eventTypes.length === 0) return { ok: false, error: l10n.t('"{0}" must be a list of event types, e.g. {1}.', 'eventTypes', '["response.completed"]') };
    const unknown = raw.eventTypes.filter((t) => !known.has(t as string));
    if (unknown.length) {
      const names = unknown.map((t) => JSON.stringify(t)).join(', ');
      return { ok: false, error: l10n.t('"{0}" has unknown types: {1}. Known: {2}.', 'eventTypes', names, WEBHOOK_EVENT_TYPES.join(', ')) };
    }
    eventTypes = [...new Set(raw.eventTypes as string[])];
  }
  const routes = checkRoutes(raw.routes);
  // Refused, not skipped: a launch configuration is read before anything starts, so the user can fix it.
  if (routes.problems.length) return { ok: false, error: `"routes": ${routes.problems[0]}` };
  if (raw.tunnel !== undefined && !TUNNELS.includes(raw.tunnel as (typeof TUNNELS)[number])) {
    return { ok: false, error: l10n.t('"{0}" must be one of {1}.', 'tunnel', TUNNELS.join(', ')) };
  }
  return {
    ok: true,
    config: {
      name: typeof raw.name === 'string' && raw.name ? raw.name : l10n.t('Webhooks'),
      forwardTo: forward,
      ...(raw.connection !== undefined ? { connection: (raw.connection as string).trim() } : {}),
      ...(raw.endpoint !== undefined ? { endpoint: (raw.endpoint as string).trim() } : {}),
      eventTypes,
      ...(raw.tunnel !== undefined ? { tunnel: raw.tunnel as WebhookDebugConfig['tunnel'] } : {}),
      ...(Object.keys(routes.routes).length ? { routes: routes.routes } : {}),
    },
  };
}

/** The connection a configuration names (by label or endpoint), or the only one. */
export function pickConnection<T extends { label: string; endpoint: string }>(connections: readonly T[], wanted: string | undefined): T | string {
  if (wanted === undefined) {
    if (connections.length === 1) return connections[0];
    return connections.length === 0
      ? l10n.t('No Azure OpenAI connection yet: add one (or start the local emulator), then start debugging again.')
      : l10n.t('There are {0} connections: name one in "{1}" ({2}).', connections.length, 'connection', connections.map((c) => JSON.stringify(c.label)).join(', '));
  }
  // Stryker disable next-line MethodExpression: upper or lower case, both sides are compared alike.
  const norm = (s: string) => s.trim().replace(/\/+$/, '').toLowerCase();
  const found = connections.find((c) => norm(c.label) === norm(wanted) || norm(c.endpoint) === norm(wanted));
  return found ?? l10n.t('No connection is called or points at "{0}". Connections: {1}.', wanted, connections.map((c) => JSON.stringify(c.label)).join(', ') || l10n.t('none'));
}

/** Where the hashes of the configurations the user agreed to are kept (the host's global state). */
export const DEBUG_CONSENTS_KEY = 'aoaiWorkbench.webhookDebugConsents';

/** The user setting that lets a launch configuration forward to another machine. */
export const FORWARD_ANY_HOST_SETTING = 'aoaiWorkbench.webhooks.debugForwardToAnyHost';

/**
 * Why a configuration may not forward where it says, if it may not: a repository's launch.json
 * would otherwise send every verified delivery of the user's resource to a host it chose.
 */
export function forwardRefusal(config: Pick<WebhookDebugConfig, 'forwardTo'>, allowAnyHost: boolean): string | undefined {
  if (allowAnyHost || isLoopbackUrl(config.forwardTo)) return undefined;
  const host = new URL(config.forwardTo).host;
  return l10n.t(
    '"{0}" sends deliveries to {1}, which is not this machine. A launch configuration forwards only to localhost, 127.0.0.1 or [::1], unless you allow more in your user settings ("{2}").',
    'forwardTo',
    host,
    FORWARD_ANY_HOST_SETTING,
  );
}

/** What a configuration does, as a key: the same key is the same request, so the user's yes still holds; any change asks again. */
export function debugConsentKey(config: WebhookDebugConfig, connectionId: string): string {
  const what: unknown[] = [config.forwardTo, connectionId, config.endpoint ?? null, [...config.eventTypes].sort(), config.tunnel ?? null];
  // Routes join the key only when there are some, so the yes given to a configuration without routes still holds.
  if (config.routes) what.push(Object.entries(config.routes).sort());
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** The question asked before a configuration is used the first time: where deliveries go, and what changes on the service. */
export function debugConsentText(config: WebhookDebugConfig, connectionLabel: string, tunnelLabel: string | undefined): { message: string; detail: string } {
  const host = new URL(config.forwardTo).host;
  const endpoint = config.endpoint
    ? l10n.t('Webhook endpoint {0} is pointed at this listener until the session ends (its URL is kept and put back after).', config.endpoint)
    : l10n.t('A new webhook endpoint for {0} is created for the session (deleted when it ends).', config.eventTypes.join(', '));
  return {
    message: l10n.t('Start "{0}"? It forwards the webhook deliveries of "{1}" to {2}.', config.name, connectionLabel, host),
    detail: [
      config.routes
        ? l10n.t('Verified deliveries go by their routes ({0}), the other types to {1}.', Object.entries(config.routes).map(([p, u]) => `${p} → ${u}`).join(', '), config.forwardTo)
        : l10n.t('Every verified delivery goes to {0}.', config.forwardTo),
      l10n.t('On "{0}": {1}', connectionLabel, endpoint),
      tunnelLabel
        ? l10n.t('A {0} makes the listener reachable from the internet while the session runs.', tunnelLabel)
        : l10n.t('No tunnel: the service runs on this machine.'),
      l10n.t('You are asked once for this configuration; if it changes, you are asked again.'),
    ].join('\n\n'),
  };
}
