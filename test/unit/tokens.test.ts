import assert from 'node:assert/strict';
import { CloudConfigError, resolveCloud } from '../../src/auth/clouds';
import { AuthError, TokenCache, bearerAuth, toAuthError, type TokenRequest, type TokenSource } from '../../src/auth/tokens';

/** A token source whose answers the test scripts, counting the requests it gets. */
function scriptedSource(
  answer: (req: TokenRequest, n: number) => Promise<{ token: string; expiresOnTimestamp: number; refreshAfterTimestamp?: number }>,
): TokenSource & { calls: TokenRequest[] } {
  const calls: TokenRequest[] = [];
  return { label: 'scripted', calls, getToken: (req) => answer(req, calls.push(req)) };
}

describe('token cache and scope fallback', () => {
  it('reuses a token until 5 minutes before expiry, then renews it; one request for concurrent callers', async () => {
    let now = 1_000_000;
    const source = scriptedSource(async (_req, n) => ({ token: `t${n}`, expiresOnTimestamp: now + 60 * 60_000 }));
    const cache = new TokenCache(source, 'tenant-a', () => now);
    const first = await Promise.all([1, 2, 3, 4].map(() => cache.get('s/.default')));
    assert.deepEqual(first, ['t1', 't1', 't1', 't1']);
    assert.equal(source.calls.length, 1);
    assert.equal(source.calls[0].tenantId, 'tenant-a');
    now += 54 * 60_000;
    assert.equal(await cache.get('s/.default'), 't1', '6 minutes left: still used');
    now += 2 * 60_000;
    assert.equal(await cache.get('s/.default'), 't2', '4 minutes left: renewed');
  });

  it('honours refresh_in, and keeps a still-valid token when its renewal fails', async () => {
    let now = 0;
    let fail = false;
    const source = scriptedSource(async (_req, n) => {
      if (fail) throw new Error('AADSTS50058: A silent sign-in request was sent but no user is signed in.');
      return { token: `t${n}`, expiresOnTimestamp: now + 60 * 60_000, refreshAfterTimestamp: now + 30 * 60_000 };
    });
    const cache = new TokenCache(source, undefined, () => now);
    assert.equal(await cache.get('s'), 't1');
    now += 31 * 60_000;
    assert.equal(await cache.get('s'), 't2', 'renewed after refresh_in');
    now += 31 * 60_000;
    fail = true;
    assert.equal(await cache.get('s'), 't2', 'renewal failed, 29 minutes left: the old token is used');
    now += 29 * 60_000;
    await assert.rejects(cache.get('s'), (e: unknown) => e instanceof AuthError && /AADSTS50058/.test(e.message));
  });

  it('moves to the next scope when one is refused, and stops at the last', async () => {
    const source = scriptedSource(async (req) => {
      if (req.scopes[0] === 'https://ai.azure.com/.default') throw new Error('AADSTS500011: The resource principal named https://ai.azure.com was not found in the tenant.');
      return { token: 'cog', expiresOnTimestamp: Date.now() + 3_600_000 };
    });
    const auth = bearerAuth(new TokenCache(source), ['https://ai.azure.com/.default', 'https://cognitiveservices.azure.com/.default']);
    assert.equal(await auth.getToken(), 'cog');
    assert.equal(auth.scope, 'https://cognitiveservices.azure.com/.default');
    assert.equal(await auth.onUnauthorized!(), false, 'no scope left to try');
  });

  it('turns identity errors into sentences that say what to do, never echoing a token', () => {
    const ctx = { source: 'Azure CLI', scope: 's/.default', tenantId: 'contoso.onmicrosoft.com' };
    const cases: Array<[unknown, RegExp]> = [
      [
        Object.assign(new Error('Azure CLI could not be found. Please visit https://aka.ms/azure-cli for installation instructions'), { name: 'CredentialUnavailableError' }),
        /not installed or not on PATH/,
      ],
      [new Error('AADSTS50020: User account from identity provider does not exist in tenant'), /not a member of tenant contoso/],
      [new Error('AADSTS50076: Due to a configuration change made by your administrator, you must use multi-factor authentication'), /multi-factor/],
      [new Error('AADSTS700082: The refresh token has expired due to inactivity.'), /has expired.*az login --tenant contoso/],
      [new Error('endpoints_resolution_error: Error: could not resolve endpoints'), /Could not reach the sign-in service/],
    ];
    for (const [err, re] of cases) assert.match(toAuthError(err, ctx).message, re);
    const leaky = toAuthError(new Error('bad token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl rejected'), ctx);
    assert.doesNotMatch(leaky.message, /eyJhbGci/);
  });
});

describe('clouds', () => {
  it('has the public and sovereign clouds, with their authority, Resource Manager and scopes', () => {
    assert.equal(resolveCloud(undefined).resourceManagerEndpoint, 'https://management.azure.com');
    const gov = resolveCloud('AzureUSGovernment');
    assert.deepEqual(
      [gov.authorityHost, gov.managementScope, gov.dataPlaneScopes[0], gov.vscodeProviderId],
      ['https://login.microsoftonline.us', 'https://management.usgovcloudapi.net/.default', 'https://cognitiveservices.azure.us/.default', 'microsoft-sovereign-cloud'],
    );
    assert.equal(resolveCloud('AzureChinaCloud').authorityHost, 'https://login.chinacloudapi.cn');
  });

  it('checks a custom cloud field by field', () => {
    assert.throws(() => resolveCloud('Moon'), CloudConfigError);
    for (const inherited of ['toString', 'constructor', '__proto__']) assert.throws(() => resolveCloud(inherited), CloudConfigError, inherited);
    assert.throws(() => resolveCloud('Custom', { resourceManagerEndpoint: 'https://arm.contoso' }), /customCloud.authorityHost/);
    assert.throws(() => resolveCloud('Custom', { authorityHost: 'http://login.contoso', resourceManagerEndpoint: 'https://arm.contoso' }), /must use https/);
    const c = resolveCloud('Custom', { authorityHost: 'https://login.contoso/', resourceManagerEndpoint: 'http://127.0.0.1:8080' });
    assert.deepEqual([c.authorityHost, c.managementScope, c.knownAuthority], ['https://login.contoso', 'http://127.0.0.1:8080/.default', false]);
  });
});
