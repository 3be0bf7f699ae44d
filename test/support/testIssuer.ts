/**
 * A local OpenID Connect provider that @azure/identity (MSAL) accepts as an Entra ID authority:
 * the real `oidc-provider` package over HTTPS on 127.0.0.1, with a throwaway CA made by openssl,
 * mounted under /{tenant}/v2.0, issuing JWT access tokens for `<resource>/.default` scopes by the
 * client-credentials grant. Its signing key is ours, so tests can also mint tokens the provider
 * would never issue (expired, wrong audience).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { scratchDir } from './scratchDir';

export interface TestClient {
  id: string;
  secret: string;
  /** The `oid` claim of its tokens: what role assignments name. */
  oid: string;
}

export interface TestIssuer {
  /** https://127.0.0.1:<port>: what `authorityHost` is set to. */
  authorityHost: string;
  tenantId: string;
  /** The `iss` of its tokens. */
  issuer: string;
  jwksUri: string;
  /** PEM file of the CA that signed the server certificate. */
  caFile: string;
  caPem: string;
  clients: TestClient[];
  /** Token endpoint calls so far. */
  tokenRequests(): number;
  /** Signs a token with the provider's own key. */
  mint(claims: Record<string, unknown>, options: { audience: string; expiresInSeconds: number | null }): Promise<string>;
  close(): Promise<void>;
}

export interface TestIssuerOptions {
  /** Resources a token can be asked for; others are refused with invalid_target. */
  resources?: string[];
  clients?: TestClient[];
  accessTokenTtlSeconds?: number;
  /** Random unless given. */
  tenantId?: string;
}

export const TEST_RESOURCES = ['https://ai.azure.com', 'https://cognitiveservices.azure.com', 'https://management.azure.com'];

/** A CA and a server certificate for 127.0.0.1 / localhost, valid for two days. */
export function makeTestCertificates(dir: string): { caFile: string; keyFile: string; certFile: string } {
  const f = (n: string) => join(dir, n);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=AOAI Workbench Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.pem'), '-days', '2', '-extfile', f('ext.cnf'));
  return { caFile: f('ca.pem'), keyFile: f('server.key'), certFile: f('server.pem') };
}

export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const { default: Provider, errors } = await import('oidc-provider');
  // The same in-memory store the provider would pick itself, named explicitly: a test issuer lives
  // for one run, and without it the provider warns about production use in every test's output.
  const memoryAdapter: { createMemoryAdapter(): unknown } = await import(join('oidc-provider', 'lib', 'adapters', 'memory_adapter.js'));
  const dir = scratchDir('aoai-issuer-');
  const certs = makeTestCertificates(dir);
  const tenantId = options.tenantId ?? randomUUID();
  const resources = new Set(options.resources ?? TEST_RESOURCES);
  const clients = options.clients ?? [{ id: randomUUID(), secret: `secret-${randomUUID()}`, oid: randomUUID() }];
  const ttl = options.accessTokenTtlSeconds ?? 3600;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };

  const server = createServer({ key: readFileSync(certs.keyFile), cert: readFileSync(certs.certFile) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const authorityHost = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = `/${tenantId}/v2.0`;
  const issuer = `${authorityHost}${prefix}`;

  /** `https://x/.default` → `https://x`, as Entra ID reads scopes. */
  const resourceOfScope = (scope: string | undefined) => scope?.split(' ').find((s) => s.endsWith('/.default'))?.slice(0, -'/.default'.length);
  const oidByClient = new Map(clients.map((c) => [c.id, c.oid]));

  const provider = new Provider(issuer, {
    adapter: memoryAdapter.createMemoryAdapter() as never,
    clients: clients.map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [jwk] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx) => resourceOfScope(ctx.oidc.params?.scope as string | undefined) ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!resources.has(resource)) throw new errors.InvalidTarget(`AADSTS500011: The resource principal named ${resource} was not found in the tenant.`);
          return { audience: resource, scope: `${resource}/.default`, accessTokenFormat: 'jwt', accessTokenTTL: ttl };
        },
      },
    },
    scopes: [...resources].map((r) => `${r}/.default`),
    ttl: { ClientCredentials: ttl },
    extraTokenClaims: (_ctx, token) => {
      const clientId = (token as { clientId?: string }).clientId;
      return { tid: tenantId, oid: (clientId && oidByClient.get(clientId)) ?? 'unknown', appid: clientId };
    },
  });
  // Entra's HTTPS endpoints sit behind TLS termination in the provider's view of the world.
  provider.proxy = true;

  let tokenRequests = 0;
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    if (url.startsWith(`${prefix}/token`)) tokenRequests++;
    (req as { originalUrl?: string }).originalUrl = url;
    req.url = url.slice(prefix.length) || '/';
    callback(req, res);
  });

  const signingKey = await importJWK(jwk, 'RS256');
  return {
    authorityHost,
    tenantId,
    issuer,
    jwksUri: `${issuer}/jwks`,
    caFile: certs.caFile,
    caPem: readFileSync(certs.caFile, 'utf8'),
    clients,
    tokenRequests: () => tokenRequests,
    mint: (claims, { audience, expiresInSeconds }) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({ tid: tenantId, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(now - 60);
      // null: a token without `exp`, which the service refuses.
      return (expiresInSeconds === null ? jwt : jwt.setExpirationTime(now + expiresInSeconds)).sign(signingKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}
