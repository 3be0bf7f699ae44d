/**
 * Bearer tokens for Entra ID ("keyless") connections: one interface over every token source
 * (VS Code's Microsoft account, the Azure CLI, DefaultAzureCredential, any TokenCredential), a
 * cache that refreshes shortly before expiry with one request in flight per scope, and the
 * data-plane scope fallback (ai.azure.com first, cognitiveservices.azure.com when refused).
 */
import * as l10n from '@vscode/l10n';
import type { AuthSource } from '../service/connection';

export interface AccessToken {
  token: string;
  /** Epoch milliseconds. */
  expiresOnTimestamp: number;
  /** Epoch milliseconds after which the issuer wants the token refreshed (Entra's `refresh_in`). */
  refreshAfterTimestamp?: number;
}

export interface TokenRequest {
  scopes: string[];
  tenantId?: string;
  signal?: AbortSignal;
}

export interface TokenSource {
  /** For messages: "Azure CLI", "VS Code Microsoft account", ... */
  readonly label: string;
  getToken(request: TokenRequest): Promise<AccessToken>;
}

/** A failure to get a token, with a sentence that says what to do. Never carries a token. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    message: string,
    /** AADSTS code, OAuth error code or the credential's error name. */
    readonly code?: string,
    /** The identity provider refused this scope/resource: another scope may work. */
    readonly scopeRefused = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
/** Identity libraries' messages can be long and, in rare cases, echo a token: keep the first lines, never a JWT. */
function firstLines(text: string): string {
  return text.replace(JWT, '***').split(/\r?\n/).filter((l) => l.trim()).slice(0, 2).join(' ').slice(0, 300);
}

/** AADSTS codes (and OAuth errors) meaning "this app/tenant does not accept that resource or scope". */
const SCOPE_REFUSED = new Set(['500011', '65002', '650057', '70011', '500001']);

export interface ErrorContext {
  source: string;
  scope: string;
  tenantId?: string;
  authorityHost?: string;
}

/** Turns whatever a token source threw into an AuthError a person can act on. */
export function toAuthError(err: unknown, ctx: ErrorContext): AuthError {
  if (err instanceof AuthError) return err;
  const e = err as { name?: string; message?: string; errorCode?: string; code?: string };
  const raw = typeof e?.message === 'string' ? e.message : String(err);
  const text = firstLines(raw);
  const aadsts = /AADSTS(\d+)/.exec(raw)?.[1];
  const oauth = /\b(invalid_target|invalid_scope|invalid_resource|invalid_client|unauthorized_client|invalid_grant)\b/.exec(raw)?.[1] ?? e?.errorCode;
  const tenant = ctx.tenantId ? ` --tenant ${ctx.tenantId}` : '';
  const opts = { cause: err };

  if (e?.name === 'AbortError') return new AuthError(l10n.t('Sign-in for {0} was cancelled.', ctx.scope), 'aborted', false, opts);
  if ((aadsts && SCOPE_REFUSED.has(aadsts)) || oauth === 'invalid_target' || oauth === 'invalid_scope' || oauth === 'invalid_resource') {
    const why = aadsts ? ` (AADSTS${aadsts})` : oauth ? ` (${oauth})` : '';
    return new AuthError(l10n.t('{0} could not get a token for {1}{2}: {3}', ctx.source, ctx.scope, why, text), aadsts ? `AADSTS${aadsts}` : oauth, true, opts);
  }
  if (aadsts === '50020' || aadsts === '90072' || aadsts === '50177') {
    const tenant = ctx.tenantId ?? l10n.t('that was asked for');
    const message = l10n.t(
      'Your account is not a member of tenant {0} (AADSTS{1}). Choose the tenant the resource belongs to (edit the connection), or sign in with an account of that tenant.',
      tenant,
      aadsts,
    );
    return new AuthError(message, `AADSTS${aadsts}`, false, opts);
  }
  if (aadsts === '90002') {
    return new AuthError(l10n.t('The tenant {0} does not exist (AADSTS90002). Check the tenant ID of the connection.', ctx.tenantId ?? ''), 'AADSTS90002', false, opts);
  }
  if (aadsts === '50076' || aadsts === '50079' || aadsts === '50078') {
    const message = l10n.t('This tenant requires multi-factor authentication (AADSTS{0}). Sign in again interactively (Azure CLI: {1}).', aadsts, `az login${tenant}`);
    return new AuthError(message, `AADSTS${aadsts}`, false, opts);
  }
  if (aadsts === '700082' || aadsts === '50173' || aadsts === '70043') {
    return new AuthError(l10n.t('Your sign-in has expired (AADSTS{0}). Sign in again (Azure CLI: {1}).', aadsts, `az login${tenant}`), `AADSTS${aadsts}`, false, opts);
  }
  if (e?.name === 'CredentialUnavailableError') {
    if (/az(ure)? cli.*(not (be )?found|not installed)/i.test(raw)) {
      const message = l10n.t('The Azure CLI is not installed or not on PATH. Install it ({0}), run "az login", then try again; or choose another token source.', 'https://aka.ms/azure-cli');
      return new AuthError(message, 'CredentialUnavailableError', false, opts);
    }
    if (/az login/i.test(raw)) {
      return new AuthError(l10n.t('The Azure CLI is not signed in. Run "{0}" in a terminal, then try again.', `az login${tenant}`), 'CredentialUnavailableError', false, opts);
    }
    return new AuthError(l10n.t('{0} has no usable credential: {1}', ctx.source, text), 'CredentialUnavailableError', false, opts);
  }
  if (/endpoints_resolution_error|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|network_error|certificate|self.signed|UNABLE_TO_VERIFY/i.test(raw)) {
    const check = l10n.t('Check your network, the "{0}" setting, and that a proxy\'s certificate is trusted.', 'aoaiWorkbench.cloud');
    const where = ctx.authorityHost ? l10n.t('Could not reach the sign-in service at {0}.', ctx.authorityHost) : l10n.t('Could not reach the sign-in service.');
    const message = `${where} ${check} (${text})`;
    return new AuthError(message, 'network', false, opts);
  }
  if (aadsts) return new AuthError(l10n.t('Sign-in with {0} failed (AADSTS{1}): {2}', ctx.source, aadsts, text), `AADSTS${aadsts}`, false, opts);
  return new AuthError(l10n.t('Sign-in with {0} failed: {1}', ctx.source, text), oauth ?? e?.name, false, opts);
}

/** Tokens with less than this left are renewed before use (the same margin @azure/identity uses). */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** An old token still this valid is used when its renewal fails. */
const STILL_USABLE_MS = 30_000;

/** Per-scope token cache for one source and tenant: renewed before expiry, one request in flight per scope. */
export class TokenCache {
  private readonly tokens = new Map<string, AccessToken>();
  private readonly inflight = new Map<string, Promise<AccessToken>>();

  constructor(
    readonly source: TokenSource,
    readonly tenantId?: string,
    private readonly now: () => number = Date.now,
  ) {}

  private fresh(t: AccessToken | undefined): boolean {
    if (!t) return false;
    const now = this.now();
    if (t.refreshAfterTimestamp !== undefined && now >= t.refreshAfterTimestamp) return false;
    return t.expiresOnTimestamp - now > REFRESH_MARGIN_MS;
  }

  async get(scope: string, signal?: AbortSignal): Promise<string> {
    const cached = this.tokens.get(scope);
    if (cached && this.fresh(cached)) return cached.token;
    let pending = this.inflight.get(scope);
    if (!pending) {
      // The shared request is not tied to one caller's signal: another caller may still want it.
      pending = this.source.getToken({ scopes: [scope], tenantId: this.tenantId }).finally(() => this.inflight.delete(scope));
      this.inflight.set(scope, pending);
    }
    try {
      const token = await abortable(pending, signal);
      if (!token?.token) throw new AuthError(l10n.t('{0} returned no token for {1}.', this.source.label, scope), 'empty');
      this.tokens.set(scope, token);
      return token.token;
    } catch (err) {
      if (signal?.aborted) throw err;
      // Renewal failed but the old token has time left: keep working, try again next time.
      if (cached && cached.expiresOnTimestamp - this.now() > STILL_USABLE_MS) return cached.token;
      throw toAuthError(err, { source: this.source.label, scope, tenantId: this.tenantId });
    }
  }

  /** Drops every token (sign-out, account change). */
  clear(): void {
    this.tokens.clear();
  }
}

function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export type BearerAuth = Extract<AuthSource, { kind: 'bearer' }> & {
  /** The scope tokens are currently asked for. */
  readonly scope: string;
};

/**
 * Bearer auth over a list of scopes in order of preference. A scope the identity provider refuses,
 * or whose token the service answers with 401, is dropped for the next one; the choice sticks.
 */
export function bearerAuth(cache: TokenCache, scopes: readonly string[], plane: 'data' | 'management' = 'data'): BearerAuth {
  if (scopes.length === 0) throw new Error('bearerAuth needs at least one scope');
  let index = 0;
  const auth: BearerAuth = {
    kind: 'bearer',
    plane,
    get scope() {
      return scopes[index];
    },
    async getToken(signal) {
      for (;;) {
        try {
          return await cache.get(scopes[index], signal);
        } catch (err) {
          if (err instanceof AuthError && err.scopeRefused && index < scopes.length - 1) {
            index++;
            continue;
          }
          throw err;
        }
      }
    },
    async onUnauthorized() {
      if (index < scopes.length - 1) {
        index++;
        return true;
      }
      return false;
    },
  };
  return auth;
}
