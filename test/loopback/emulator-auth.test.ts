/** Where the emulator answers as the service does about credentials and malformed paths. */
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { startTestIssuer, type TestIssuer } from '../support/testIssuer';

const ARM = 'https://management.azure.com';
const DATA = 'https://cognitiveservices.azure.com';
const SUBS = '/subscriptions?api-version=2022-12-01';

describe('emulator authentication as the service answers it', () => {
  let issuer: TestIssuer;
  let emu: Emulator;
  let granted: string;
  before(async () => {
    issuer = await startTestIssuer();
    granted = issuer.clients[0].oid;
    emu = await startEmulator({
      config: { disableLocalAuth: true, entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile, grantedPrincipals: [granted] } },
    });
  });
  after(async () => {
    await emu.close();
    await issuer.close();
  });

  const call = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${emu.url}${path}`, { headers });
    return { status: res.status, body: (await res.json()) as { error?: { code?: string }; value?: unknown[] } };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('with key authentication disabled, the API key gets 403 AuthenticationTypeDisabled', async () => {
    for (const headers of [{ 'api-key': emu.apiKey }, bearer(emu.apiKey)]) {
      const r = await call('/openai/v1/models', headers);
      assert.deepEqual([r.status, r.body.error?.code], [403, 'AuthenticationTypeDisabled']);
    }
  });

  it('Resource Manager routes take only bearer tokens: the API key, in either header, is refused', async () => {
    const keyed = await startEmulator();
    try {
      const viaHeader = await fetch(`${keyed.url}${SUBS}`, { headers: { 'api-key': keyed.apiKey } });
      assert.deepEqual([viaHeader.status, ((await viaHeader.json()) as { error: { code: string } }).error.code], [401, 'AuthenticationFailed']);
      const viaBearer = await fetch(`${keyed.url}${SUBS}`, { headers: bearer(keyed.apiKey) });
      assert.deepEqual([viaBearer.status, ((await viaBearer.json()) as { error: { code: string } }).error.code], [401, 'InvalidAuthenticationToken']);
    } finally {
      await keyed.close();
    }
  });

  it('a token without exp is refused on both planes', async () => {
    const data = await call('/openai/v1/models', bearer(await issuer.mint({ oid: granted }, { audience: DATA, expiresInSeconds: null })));
    assert.equal(data.status, 401);
    const arm = await call(SUBS, bearer(await issuer.mint({ oid: granted }, { audience: ARM, expiresInSeconds: null })));
    assert.deepEqual([arm.status, arm.body.error?.code], [401, 'InvalidAuthenticationToken']);
    assert.equal((await call('/openai/v1/models', bearer(await issuer.mint({ oid: granted }, { audience: DATA, expiresInSeconds: 600 })))).status, 200);
  });

  it('GET /subscriptions for a principal without roles is 200 with no subscriptions; its accounts are 403', async () => {
    const token = await issuer.mint({ oid: 'someone-without-roles' }, { audience: ARM, expiresInSeconds: 600 });
    const subs = await call(SUBS, bearer(token));
    assert.deepEqual([subs.status, subs.body.value], [200, []]);
    const sub = emu.config.subscriptions[0].subscriptionId;
    const accounts = await call(`/subscriptions/${sub}/providers/Microsoft.CognitiveServices/accounts?api-version=2024-10-01`, bearer(token));
    assert.deepEqual([accounts.status, accounts.body.error?.code], [403, 'AuthorizationFailed']);
    const mineToken = bearer(await issuer.mint({ oid: granted }, { audience: ARM, expiresInSeconds: 600 }));
    assert.equal((await call(SUBS, mineToken)).body.value?.length, 1);
    assert.deepEqual(await call('/subscriptions', mineToken).then((r) => [r.status, r.body.error?.code]), [400, 'MissingApiVersionParameter']);
  });

  it('a malformed percent-encoding in a path is 400, not 500', async () => {
    const token = bearer(await issuer.mint({ oid: granted }, { audience: DATA, expiresInSeconds: 600 }));
    for (const path of ['/openai/v1/responses/%E0%A4%A', '/openai/deployments/%ZZ/chat/completions?api-version=2024-10-21', '/openai/v1/dashboard/webhook_endpoints/%']) {
      const res = await fetch(`${emu.url}${path}`, {
        method: path.includes('chat') ? 'POST' : 'GET',
        headers: { ...token, 'content-type': 'application/json' },
        body: path.includes('chat') ? '{}' : undefined,
      });
      assert.equal(res.status, 400, path);
    }
  });
});
