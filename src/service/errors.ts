/**
 * One error type for everything the service client can fail with, carrying what a person needs
 * to act on it. Messages never contain credentials: they are built only from the host, the
 * service's own error body and the request's non-secret parts. Written with @vscode/l10n: the
 * messages are in the user's language once the extension configures it (src/vscode/strings.ts).
 */
import * as l10n from '@vscode/l10n';
import { blockedSummary, filterAdvice, readFilterError, type FilterVerdict } from './contentFilter';

export type ServiceErrorKind =
  | 'http' // the service answered with a non-2xx status
  | 'network' // DNS, refused, reset, TLS
  | 'timeout' // connect, headers or body timeout
  | 'aborted' // the caller's AbortSignal fired
  | 'stream' // an error frame inside a stream, or a stream cut short
  | 'invalid-response'; // the service answered with something that is not what the API promises

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  host: string;
  status?: number;
  code?: string;
  /** The service's own message, if it sent one. */
  serviceMessage?: string;
  param?: string;
  requestId?: string;
  retryAfterMs?: number;
  /** Content filter categories that fired (hate, violence, ...). */
  filteredCategories?: string[];
  /** The content filter's verdicts in a 400 `content_filter` body (contentFilter.ts). */
  filterVerdicts?: FilterVerdict[];
  /** The deployment the request named (its 404 names it). */
  deployment?: string;
  /** How the request authenticated: shapes the advice on 401/403. */
  auth?: 'apiKey' | 'bearer';
  /** Data plane (the resource) or management plane (Resource Manager). */
  plane?: 'data' | 'management';
  /** What to do about it, added to the message. */
  hint?: string;
  cause?: unknown;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  readonly host: string;
  readonly status?: number;
  readonly code?: string;
  readonly serviceMessage?: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly filteredCategories?: string[];
  readonly filterVerdicts?: FilterVerdict[];
  readonly deployment?: string;

  constructor(private readonly init: ServiceErrorInit) {
    super(init.hint ? `${describe(init)} ${init.hint}` : describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.host = init.host;
    this.status = init.status;
    this.code = init.code;
    this.serviceMessage = init.serviceMessage;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.filteredCategories = init.filteredCategories;
    this.filterVerdicts = init.filterVerdicts;
    this.deployment = init.deployment;
  }

  /** The same error with advice added to its message. */
  withHint(hint: string): ServiceError {
    return new ServiceError({ ...this.init, hint });
  }

  /** True when the request may have reached the service and been carried out despite the error. */
  get mayHaveActed(): boolean {
    if (this.kind === 'timeout') return this.code !== 'UND_ERR_CONNECT_TIMEOUT';
    if (this.kind === 'network') return !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'CERT_HAS_EXPIRED', 'EPROXY'].includes(this.code ?? '');
    return this.status !== undefined && this.status >= 500;
  }
}

function seconds(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s === 1 ? l10n.t('1 second') : l10n.t('{0} seconds', s);
}

function withDetail(text: string, init: ServiceErrorInit): string {
  const parts = [text];
  if (init.serviceMessage && !text.includes(init.serviceMessage)) parts.push(l10n.t('Service said: {0}', init.serviceMessage));
  if (init.requestId) parts.push(l10n.t('(request id {0})', init.requestId));
  return parts.join(' ');
}

/** "401", "401 InvalidToken": a status and the service's code, as messages quote them. */
const statusCode = (status: number | undefined, code: string | undefined) => `${status ?? ''}${code ? ` ${code}` : ''}`;

/** A sentence that says what happened and what to do. */
export function describe(init: ServiceErrorInit): string {
  const { host, status, code } = init;
  switch (init.kind) {
    case 'aborted':
      return l10n.t('The request to {0} was cancelled.', host);
    case 'timeout':
      return l10n.t('{0} did not answer in time ({1}). Check your network, or raise the timeout in the settings.', host, code ?? 'timeout');
    case 'network':
      return networkMessage(host, code);
    case 'stream':
      return withDetail(code ? l10n.t('The reply stream from {0} broke off ({1}). Try again.', host, code) : l10n.t('The reply stream from {0} broke off. Try again.', host), init);
    case 'invalid-response': {
      const what = status
        ? l10n.t('{0} sent a reply that is not what the API promises (HTTP {1}).', host, status)
        : l10n.t('{0} sent a reply that is not what the API promises.', host);
      return withDetail(`${what} ${l10n.t('Check that the endpoint is an Azure OpenAI resource.')}`, init);
    }
    case 'http':
      break;
  }
  if (status === 401 || status === 403) return accessMessage(init);
  if (status === 404 && (code === 'DeploymentNotFound' || init.deployment)) {
    const name = init.deployment ? `"${init.deployment}"` : l10n.t('named in the request');
    const ready = l10n.t('Check the name in the Deployments list; a deployment created in the last 5 minutes may not be ready yet.');
    return withDetail(`${l10n.t('The deployment {0} does not exist on {1}.', name, host)} ${ready}`, init);
  }
  if (status === 404) {
    return withDetail(l10n.t('Not found (404) on {0}. Check the endpoint URL; this resource may not offer this API.', host), init);
  }
  if (status === 400 && code === 'content_filter') {
    const id = init.requestId ? ` ${l10n.t('(request id {0})', init.requestId)}` : '';
    const summary = init.filterVerdicts && blockedSummary(init.filterVerdicts);
    if (summary) return `${summary} ${filterAdvice(init.filterVerdicts!).join(' ')}${id}`;
    const cats = init.filteredCategories?.length ? ` (${init.filteredCategories.join(', ')})` : '';
    return `${l10n.t('The content filter blocked this request{0}. Rephrase the message and send it again.', cats)}${id}`;
  }
  if (status === 429) {
    const when = init.retryAfterMs !== undefined ? l10n.t('Retry in {0}.', seconds(init.retryAfterMs)) : l10n.t('Retry in a little while.');
    return withDetail(`${l10n.t('Rate limit reached on {0}.', host)} ${when}`, init);
  }
  if (status !== undefined && status >= 500) {
    return withDetail(l10n.t('The service at {0} failed (HTTP {1}). This is usually temporary: try again shortly.', host, status), init);
  }
  const http = `${status}${code ? `, ${code}` : ''}`;
  const rejected = init.param
    ? l10n.t('The request was rejected by {0} (HTTP {1}) (parameter "{2}").', host, http, init.param)
    : l10n.t('The request was rejected by {0} (HTTP {1}).', host, http);
  return withDetail(rejected, init);
}

const dataRole = () =>
  [
    l10n.t('Ask an Owner or User Access Administrator of the resource to grant you the "Cognitive Services OpenAI User" role on it'),
    l10n.t('(Azure portal → the resource → Access control (IAM) → Add role assignment); a new assignment takes up to 5 minutes to apply.'),
  ].join(' ');
const managementRole = () =>
  l10n.t('Ask for the "Reader" role (or "Cognitive Services Contributor") on the subscription or the resource group (Azure portal → Access control (IAM) → Add role assignment).');

/** 401 and 403: what is wrong with the credential, and which role to ask for when it is a missing assignment. */
function accessMessage(init: ServiceErrorInit): string {
  const { host, status, code } = init;
  const said = `${code ?? ''} ${init.serviceMessage ?? ''}`;
  if (init.plane === 'management') {
    if (status === 403 || /AuthorizationFailed/i.test(said)) {
      const denied = l10n.t('Azure Resource Manager denied access ({0}): your identity cannot read these resources.', statusCode(status, code));
      return withDetail(`${denied} ${managementRole()}`, init);
    }
    const why = l10n.t('it is expired, for another audience, or from another tenant. Sign in again, or choose the tenant of the subscription.');
    return withDetail(l10n.t('Azure Resource Manager rejected the token ({0}): {1}', statusCode(401, code), why), init);
  }
  if (/AuthenticationTypeDisabled|key based authentication is disabled/i.test(said)) {
    return withDetail(l10n.t('Key authentication is disabled on {0}. Edit the connection and switch it to Entra ID.', host), init);
  }
  if (init.auth === 'bearer') {
    if (status === 403 || /PermissionDenied|lacks the required data action|does not have (access|permission)/i.test(said)) {
      return withDetail(`${l10n.t('Your Entra ID identity has no data-plane access to {0} ({1}).', host, statusCode(status, code))} ${dataRole()}`, init);
    }
    const why = l10n.t('it is expired, for another audience, or from another tenant. Sign in again, or choose the tenant the resource belongs to.');
    return withDetail(l10n.t('{0} rejected the Entra ID token ({1}): {2}', host, statusCode(401, code), why), init);
  }
  if (status === 401) {
    return withDetail(
      l10n.t("Access denied (401) by {0}: the API key or token is wrong, or the endpoint is not this resource's. Check the connection's key and endpoint.", host),
      init,
    );
  }
  const forbidden = l10n.t('Forbidden (403) by {0}: your identity has no access to this resource, or its network rules block you.', host);
  return withDetail(`${forbidden} ${l10n.t('With Entra ID: {0}', dataRole())}`, init);
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS/;

function networkMessage(host: string, code: string | undefined): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('Could not resolve {0} ({1}). Check the endpoint URL and your network or proxy.', host, code);
    case 'ECONNREFUSED':
      return l10n.t('{0} refused the connection. Check the endpoint URL and port; if it is the local emulator, start it.', host);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return l10n.t('The connection to {0} was cut ({1}). Try again; if it keeps happening, check your proxy or firewall.', host, code);
    case 'EPROXY':
      return l10n.t('The proxy refused to connect to {0}.', host);
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return l10n.t('{0} cannot be reached ({1}). Check your network connection.', host, code);
  }
  if (code && TLS_CODES.test(code)) {
    return l10n.t('The secure connection to {0} failed ({1}). Check the endpoint URL; a proxy that inspects TLS needs its certificate trusted.', host, code);
  }
  return code
    ? l10n.t('Could not reach {0} ({1}). Check the endpoint URL and your network.', host, code)
    : l10n.t('Could not reach {0}. Check the endpoint URL and your network.', host);
}

interface ErrorBody {
  error?: {
    code?: unknown;
    message?: unknown;
    param?: unknown;
    status?: unknown;
    innererror?: { code?: unknown; content_filter_result?: unknown; content_filter_results?: unknown };
    inner_error?: { code?: unknown; content_filter_result?: unknown; content_filter_results?: unknown };
  };
  code?: unknown;
  message?: unknown;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** Names of the categories marked `filtered: true` in a content filter result object. */
export function filteredCategories(results: unknown): string[] {
  if (!results || typeof results !== 'object') return [];
  return Object.entries(results as Record<string, unknown>)
    .filter(([, v]) => !!v && typeof v === 'object' && (v as { filtered?: unknown }).filtered === true)
    .map(([k]) => k);
}

/** Reads the service's error body in every spelling seen on the wire. */
export function parseErrorBody(text: string): Pick<ServiceErrorInit, 'code' | 'serviceMessage' | 'param' | 'filteredCategories' | 'filterVerdicts'> {
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    const trimmed = text.trim().slice(0, 300);
    return trimmed ? { serviceMessage: trimmed } : {};
  }
  if (!body || typeof body !== 'object') return {};
  const err = body.error && typeof body.error === 'object' ? body.error : undefined;
  const inner = err?.innererror ?? err?.inner_error;
  const cats = filteredCategories(inner?.content_filter_result ?? inner?.content_filter_results);
  return {
    code: str(err?.code) ?? str(body.code),
    serviceMessage: str(err?.message) ?? str(body.message),
    param: str(err?.param),
    filteredCategories: cats.length ? cats : undefined,
    filterVerdicts: cats.length ? readFilterError(body) : undefined,
  };
}

/** `retry-after-ms` first (as the service documents), then `retry-after` in seconds or as a date. */
export function parseRetryAfter(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ms = Number(first(headers['retry-after-ms']));
  if (Number.isFinite(ms) && ms >= 0 && first(headers['retry-after-ms']) !== undefined) return ms;
  const ra = first(headers['retry-after']);
  if (ra === undefined) return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
