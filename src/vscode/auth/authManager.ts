/**
 * Where Entra ID tokens come from inside VS Code: the built-in Microsoft account provider, or
 * @azure/identity's Azure CLI and DefaultAzureCredential (a separate bundle, loaded on first use).
 * One token cache per cloud, source and tenant; sign-outs, account changes and a changed cloud
 * setting drop the cached tokens and tell the rest of the extension.
 */
import * as vscode from 'vscode';
import { resolveCloud, type CloudEnvironment } from '../../auth/clouds';
import type { IdentityKind } from '../../auth/identity';
import { AuthError, TokenCache, bearerAuth, type AccessToken, type BearerAuth, type TokenSource } from '../../auth/tokens';
import { loadIdentity } from '../bundles';
import { logInfo } from '../log';
import { proxySettings } from '../proxySettings';
import { onDidChangeSettings, setting } from '../settings';

export type TokenSourceKind = 'vscode' | IdentityKind;

/** The token sources as the user reads them (a function: VS Code's strings are read when shown). */
export const tokenSources = (): Array<{ kind: TokenSourceKind; label: string; description: string }> => [
  {
    kind: 'vscode',
    label: `$(account) ${vscode.l10n.t('VS Code Microsoft account')}`,
    description: vscode.l10n.t('Sign in with the account VS Code knows (Accounts menu)'),
  },
  { kind: 'azureCli', label: '$(terminal) Azure CLI', description: vscode.l10n.t('The account of "az login" on this machine') },
  { kind: 'default', label: '$(key) DefaultAzureCredential', description: vscode.l10n.t('Environment variables, managed identity, Azure CLI, azd, … in that order') },
];

export const tokenSourceLabel = (kind: TokenSourceKind | undefined) => tokenSources().find((s) => s.kind === (kind ?? 'vscode'))!.label.replace(/^\$\([^)]+\)\s*/, '');

/** The `exp` claim of a JWT, in epoch ms: VS Code's sessions do not say when their token expires. */
export function jwtExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** VS Code's own Microsoft (or sovereign cloud) account: silent first, then a sign-in prompt. */
function vscodeSessionSource(cloud: CloudEnvironment): TokenSource {
  return {
    label: vscode.l10n.t('VS Code Microsoft account'),
    async getToken({ scopes, tenantId }): Promise<AccessToken> {
      const asked = [...scopes, ...(tenantId ? [`VSCODE_TENANT:${tenantId}`] : [])];
      let session = await vscode.authentication.getSession(cloud.vscodeProviderId, asked, { silent: true });
      try {
        session ??= await vscode.authentication.getSession(cloud.vscodeProviderId, asked, { createIfNone: true });
      } catch (err) {
        if (/cancel/i.test(String((err as Error)?.message))) {
          throw new AuthError(vscode.l10n.t('Sign-in was cancelled. Sign in from the Accounts menu, or choose another token source for the connection.'), 'cancelled');
        }
        throw err;
      }
      // Without an exp claim, assume a short life so VS Code is asked again soon.
      return { token: session.accessToken, expiresOnTimestamp: jwtExpiry(session.accessToken) ?? Date.now() + 10 * 60_000 };
    },
  };
}

export class AuthManager implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Tokens were dropped (sign-out, account change, cloud setting): clients must be rebuilt. */
  readonly onDidChange = this.changed.event;
  private readonly caches = new Map<string, TokenCache>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.subscriptions.push(
      vscode.authentication.onDidChangeSessions((e) => {
        if (e.provider.id === 'microsoft' || e.provider.id === 'microsoft-sovereign-cloud') this.reset(`${e.provider.label} sessions changed`, 'vscode');
      }),
      onDidChangeSettings(['cloud', 'customCloud'], () => this.reset('the cloud setting changed')),
    );
  }

  /** The cloud of the settings; a broken custom cloud throws a message that says which field to fix. */
  cloud(): CloudEnvironment {
    return resolveCloud(setting('cloud'), setting('customCloud'));
  }

  private source(kind: TokenSourceKind, cloud: CloudEnvironment): TokenSource {
    if (kind === 'vscode') return vscodeSessionSource(cloud);
    // Loaded here, not at activation: @azure/identity and MSAL are most of a megabyte.
    return loadIdentity().identitySource(kind, { cloud, proxy: proxySettings() });
  }

  cache(kind: TokenSourceKind, tenantId: string | undefined): TokenCache {
    const cloud = this.cloud();
    // A changed proxy setting makes a new credential (and so new sign-in connections).
    const key = [cloud.name, cloud.authorityHost, kind, tenantId ?? '', JSON.stringify(proxySettings())].join('|');
    let cache = this.caches.get(key);
    if (!cache) {
      cache = new TokenCache(this.source(kind, cloud), tenantId || undefined);
      this.caches.set(key, cache);
    }
    return cache;
  }

  /** For the resource's own API (chat, webhooks): the cloud's data-plane scopes, best first. */
  dataAuth(kind: TokenSourceKind, tenantId?: string): BearerAuth {
    return bearerAuth(this.cache(kind, tenantId), this.cloud().dataPlaneScopes, 'data');
  }

  /** For Azure Resource Manager (subscriptions, accounts, deployments). */
  managementAuth(kind: TokenSourceKind, tenantId?: string): BearerAuth {
    return bearerAuth(this.cache(kind, tenantId), [this.cloud().managementScope], 'management');
  }

  /** A fingerprint of what tokens depend on, for client caches. */
  fingerprint(): string {
    const c = this.cloud();
    return `${c.name}|${c.authorityHost}|${c.resourceManagerEndpoint}`;
  }

  private reset(why: string, only?: TokenSourceKind): void {
    for (const [key, cache] of this.caches) {
      if (!only || key.split('|')[2] === only) {
        cache.clear();
        this.caches.delete(key);
      }
    }
    logInfo(`Entra ID tokens dropped: ${why}.`);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
