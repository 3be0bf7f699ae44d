/**
 * Token sources backed by @azure/identity: the Azure CLI login and the DefaultAzureCredential
 * chain. This module is bundled on its own and loaded only when a connection uses one of them,
 * so activation never pays for @azure/identity and MSAL.
 */
import * as l10n from '@vscode/l10n';
import { AzureCliCredential, DefaultAzureCredential, type TokenCredential, type TokenCredentialOptions } from '@azure/identity';
import { proxyFor, type ProxySettings } from '../service/proxyRules';
import type { CloudEnvironment } from './clouds';
import type { AccessToken, TokenSource } from './tokens';

export type IdentityKind = 'azureCli' | 'default';

export const IDENTITY_LABELS: Record<IdentityKind, string> = {
  azureCli: 'Azure CLI',
  default: 'DefaultAzureCredential',
};

/** Any TokenCredential as a TokenSource. */
export function credentialSource(credential: TokenCredential, label: string): TokenSource {
  return {
    label,
    async getToken({ scopes, signal }): Promise<AccessToken> {
      const t = await credential.getToken(scopes, { abortSignal: signal });
      // A plain Error: this module is a separate bundle, so its AuthError class would not be the caller's.
      if (!t?.token) throw new Error(l10n.t('{0} returned no token for {1}.', label, scopes.join(' ')));
      return { token: t.token, expiresOnTimestamp: t.expiresOnTimestamp, refreshAfterTimestamp: t.refreshAfterTimestamp };
    },
  };
}

export interface IdentitySourceOptions {
  cloud: Pick<CloudEnvironment, 'authorityHost' | 'knownAuthority'>;
  /** Extra options for the credential (tests pass a TLS policy for their own CA). */
  credentialOptions?: TokenCredentialOptions;
  /** VS Code's proxy settings; sign-in goes through the proxy they (or HTTPS_PROXY) name for the authority. */
  proxy?: ProxySettings;
}

/** @azure/identity's form of the proxy for sign-in requests to the authority, if one applies. */
function proxyOptions(options: IdentitySourceOptions): TokenCredentialOptions['proxyOptions'] {
  const proxy = proxyFor(new URL(options.cloud.authorityHost), options.proxy);
  if (!proxy) return undefined;
  const port = Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80);
  const user = proxy.username ? { username: decodeURIComponent(proxy.username), password: decodeURIComponent(proxy.password) } : {};
  return { host: `${proxy.protocol}//${proxy.hostname}`, port, ...user };
}

/** A source for one kind; one credential (and so one MSAL cache) per tenant. */
export function identitySource(kind: IdentityKind, options: IdentitySourceOptions): TokenSource {
  const credentials = new Map<string, TokenCredential>();
  const credentialFor = (tenantId: string | undefined): TokenCredential => {
    const key = tenantId ?? '';
    let c = credentials.get(key);
    if (!c) {
      c =
        kind === 'azureCli'
          ? new AzureCliCredential({ tenantId, processTimeoutInMs: 30_000 })
          : new DefaultAzureCredential({
              proxyOptions: proxyOptions(options),
              ...options.credentialOptions,
              tenantId,
              authorityHost: options.cloud.authorityHost,
              // Entra's instance discovery does not know private authorities, and would call the public cloud.
              disableInstanceDiscovery: !options.cloud.knownAuthority,
            });
      credentials.set(key, c);
    }
    return c;
  };
  const label = IDENTITY_LABELS[kind];
  return {
    label,
    getToken: (req) => credentialSource(credentialFor(req.tenantId), label).getToken(req),
  };
}
