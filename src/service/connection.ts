/** What a connection to one resource is made of, and how its endpoint is normalised. */
import type { ProxySettings } from './proxyRules';
import * as l10n from '@vscode/l10n';
import { isLoopbackHost } from './loopback';

export type AuthSource =
  | { kind: 'apiKey'; apiKey: string }
  | {
      kind: 'bearer';
      /** Returns a bearer token; it is called for every request, so it should cache. */
      getToken: (signal?: AbortSignal) => Promise<string>;
      /** Called once on a 401; true when a different token is worth a retry (another scope). */
      onUnauthorized?: (signal?: AbortSignal) => Promise<boolean>;
      /** What the token is for: shapes the advice on 401/403 (which role to ask for). */
      plane?: 'data' | 'management';
    };

export interface Timeouts {
  /** Time to open the TCP/TLS connection. */
  connectMs: number;
  /** Time until the response headers arrive. */
  headersMs: number;
  /** Longest silence while the body is read (a stream with no frame for this long fails). */
  bodyMs: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Upper bound for all attempts and waits together. */
  maxTotalMs: number;
  /** First backoff step; doubled every retry, with jitter. */
  baseDelayMs: number;
  /** Longest single wait. */
  maxDelayMs: number;
}

export const DEFAULT_API_VERSION = '2024-10-21';
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, maxTotalMs: 60_000, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface ConnectionOptions {
  /** Resource address, e.g. `https://name.openai.azure.com`, or any base such as `http://127.0.0.1:8080`. */
  endpoint: string;
  auth: AuthSource;
  /** api-version for the deployment-level route. */
  apiVersion?: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Proxy and certificate settings (VS Code's http.*); the environment's HTTPS_PROXY / NO_PROXY apply too. */
  proxy?: ProxySettings;
}

export class EndpointError extends Error {
  override readonly name = 'EndpointError';
}

/** What an endpoint looks like, in messages that ask for one. */
const EXAMPLE_ENDPOINT = 'https://my-resource.openai.azure.com';

/**
 * Accepts what people paste: a bare host, a trailing slash, `.../openai`, `.../openai/v1/`, or a
 * full deployment URL, and returns the resource base (no trailing slash, no `/openai` suffix).
 */
export function normalizeEndpoint(input: string): string {
  let text = input.trim();
  if (!text) throw new EndpointError(l10n.t('Enter the endpoint URL of your resource, e.g. {0}.', EXAMPLE_ENDPOINT));
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EndpointError(l10n.t('"{0}" is not a valid URL. Use the form {1}.', input.trim(), EXAMPLE_ENDPOINT));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new EndpointError(l10n.t('The endpoint must start with https:// (got {0}).', `${url.protocol}//`));
  }
  if (url.username || url.password) throw new EndpointError(l10n.t('The endpoint must not contain a user name or password; put the key in the key field.'));
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new EndpointError(
      l10n.t(
        'The endpoint must use https:// (got {0}): over http the key or token would travel in clear text. Plain http is for a local emulator on 127.0.0.1 or localhost only.',
        `http://${url.host}`,
      ),
    );
  }
  // Drop everything from the first `/openai` segment on: `/openai/v1/...`, `/openai/deployments/...`.
  const path = url.pathname.replace(/\/openai(\/.*)?$/i, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** True for 127.0.0.0/8, ::1 and localhost: the only places plain http is fine (see ./loopback). */
export { isLoopbackHost };
