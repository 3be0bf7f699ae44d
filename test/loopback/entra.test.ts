/**
 * Keyless sign-in end to end on loopback: @azure/identity's real credentials get tokens from a
 * real OpenID Connect provider over HTTPS, the client sends them as `Authorization: Bearer`, and
 * the emulator validates them like the service (signature, issuer, audience, expiry, roles).
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientSecretCredential } from '@azure/identity';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import { resolveCloud } from '../../src/auth/clouds';
import { credentialSource, identitySource } from '../../src/auth/identity';
import { AuthError, TokenCache, bearerAuth } from '../../src/auth/tokens';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { EntraConfig } from '../../src/emulator/entra';
import { DEFAULT_CONFIG } from '../../src/emulator/config';
import { ArmClient } from '../../src/service/arm';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { startTestIssuer, type TestIssuer } from '../support/testIssuer';
import { trustCa } from '../support/trustIssuerCa';

const DATA_SCOPES = resolveCloud('AzureCloud').dataPlaneScopes;
const MANAGEMENT_SCOPE = resolveCloud('AzureCloud').managementScope;
const messages = [{ role: 'user' as const, content: 'hello keyless' }];

async function rejects<E>(p: Promise<unknown>, type: new (...a: never[]) => E, check: (e: E) => void): Promise<void> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof type, `expected ${type.name}, got ${(err as Error)?.name}: ${(err as Error)?.message}`);
    check(err as E);
    return;
  }
  assert.fail('expected the call to fail');
}

function secretCredential(issuer: TestIssuer, client = issuer.clients[0]) {
  return new ClientSecretCredential(issuer.tenantId, client.id, client.secret, {
    authorityHost: issuer.authorityHost,
    disableInstanceDiscovery: true,
    ...trustCa(issuer),
  });
}

function entraConfig(issuer: TestIssuer, extra: Partial<EntraConfig> = {}): EntraConfig {
  return { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile, ...extra };
}

describe('Entra ID sign-in against a local identity provider', function () {
  this.timeout(60_000);
  let issuer: TestIssuer;
  let emu: Emulator;
  const closers: Array<() => Promise<unknown>> = [];

  before(async () => {
    const granted = { id: 'app-granted', secret: 'granted-secret-value', oid: '11111111-1111-4111-8111-111111111111' };
    const ungranted = { id: 'app-without-role', secret: 'other-secret-value', oid: '22222222-2222-4222-8222-222222222222' };
    issuer = await startTestIssuer({ clients: [granted, ungranted] });
    emu = await startEmulator({ config: { armPageSize: 1, entra: entraConfig(issuer, { grantedPrincipals: [granted.oid] }) } });
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  });
  after(async () => {
    await emu?.close();
    await issuer?.close();
  });

  function dataClient(cache: TokenCache, endpoint = emu.url) {
    const auth = bearerAuth(cache, DATA_SCOPES);
    const client = new AzureOpenAIClient({ endpoint, auth, retry: { maxRetries: 0 } });
    closers.push(() => client.close());
    return { client, auth };
  }

  it('chats and streams with a token from ClientSecretCredential; one token request serves many calls', async () => {
    const cache = new TokenCache(credentialSource(secretCredential(issuer), 'client secret'));
    const { client, auth } = dataClient(cache);
    const before = issuer.tokenRequests();
    const res = await client.createChatCompletion({ deployment: 'gpt-4o', messages });
    assert.match(res.choices[0].message.content ?? '', /hello keyless/);
    let streamed = '';
    for await (const chunk of client.streamChatCompletion({ deployment: 'gpt-4o-mini', messages }, { route: 'deployment' })) streamed += chunk.choices[0]?.delta?.content ?? '';
    assert.match(streamed, /hello keyless/);
    await Promise.all([1, 2, 3].map(() => client.createChatCompletion({ deployment: 'gpt-4o', messages })));
    assert.equal(auth.scope, 'https://ai.azure.com/.default');
    assert.equal(issuer.tokenRequests() - before, 1, 'the cached token is reused');
  });

  it('falls back to the cognitiveservices scope when the service refuses the ai.azure.com token', async () => {
    const strict = await startEmulator({ config: { entra: entraConfig(issuer, { dataAudiences: ['https://cognitiveservices.azure.com'] }) } });
    closers.push(() => strict.close());
    const { client, auth } = dataClient(new TokenCache(credentialSource(secretCredential(issuer), 'client secret')), strict.url);
    const res = await client.createChatCompletion({ deployment: 'gpt-4o', messages });
    assert.ok(res.choices.length > 0);
    assert.equal(auth.scope, 'https://cognitiveservices.azure.com/.default', 'the working scope sticks');
    const endpoints = [];
    for await (const e of client.listWebhookEndpoints()) endpoints.push(e);
    assert.deepEqual(endpoints, [], 'webhook management works with the fallback token too');
  });

  it('falls back when the identity provider refuses the first scope (AADSTS500011)', async () => {
    const narrow = await startTestIssuer({ resources: ['https://cognitiveservices.azure.com'] });
    closers.push(() => narrow.close());
    const emu2 = await startEmulator({ config: { entra: entraConfig(narrow) } });
    closers.push(() => emu2.close());
    const cred = new ClientSecretCredential(narrow.tenantId, narrow.clients[0].id, narrow.clients[0].secret, {
      authorityHost: narrow.authorityHost,
      disableInstanceDiscovery: true,
      ...trustCa(narrow),
    });
    const { client, auth } = dataClient(new TokenCache(credentialSource(cred, 'client secret')), emu2.url);
    await client.createChatCompletion({ deployment: 'gpt-4o', messages });
    assert.equal(auth.scope, 'https://cognitiveservices.azure.com/.default');
  });

  it('answers 401 to tokens that are expired, for another audience, forged, signed with a key the issuer never published, or not JWTs', async () => {
    const post = (token: string) =>
      fetch(`${emu.url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages }),
      });
    const oid = issuer.clients[0].oid;
    const good = await issuer.mint({ oid }, { audience: 'https://cognitiveservices.azure.com', expiresInSeconds: 600 });
    assert.equal((await post(good)).status, 200, 'a minted token with the right claims works');
    const expired = await issuer.mint({ oid }, { audience: 'https://cognitiveservices.azure.com', expiresInSeconds: -120 });
    const wrongAudience = await issuer.mint({ oid }, { audience: 'https://management.azure.com', expiresInSeconds: 600 });
    const [h, p] = good.split('.');
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    // Same claims and header, signed with a key the issuer never published: once under the
    // issuer's own kid, once under a kid it does not know.
    const { privateKey: strangerKey } = await generateKeyPair('RS256');
    const { kid } = decodeProtectedHeader(good);
    const claims = decodeJwt(good);
    const signWith = (headerKid: string) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: headerKid, typ: 'at+jwt' }).sign(strangerKey);
    const unknownKey = await signWith(kid!);
    const unknownKid = await signWith('kid-nobody-published');
    for (const [name, token] of Object.entries({ expired, wrongAudience, forged, unknownKey, unknownKid, garbage: 'a.b.c', opaque: 'not-a-jwt' })) {
      const res = await post(token);
      assert.equal(res.status, 401, name);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.match(body.error.message, /Access token is missing, invalid, audience is incorrect/, name);
    }
  });

  it('names the role to grant when the identity has no role on the resource', async () => {
    const cache = new TokenCache(credentialSource(secretCredential(issuer, issuer.clients[1]), 'client secret'));
    const { client } = dataClient(cache);
    await rejects(client.createChatCompletion({ deployment: 'gpt-4o', messages }), ServiceError, (e) => {
      assert.equal(e.status, 401);
      assert.equal(e.code, 'PermissionDenied');
      assert.match(e.message, /"Cognitive Services OpenAI User" role/);
      assert.match(e.message, /Access control \(IAM\)/);
    });
  });

  it('refuses the API key on a resource with key authentication disabled, and says to switch to Entra ID', async () => {
    const keyless = await startEmulator({ config: { disableLocalAuth: true, entra: entraConfig(issuer) } });
    closers.push(() => keyless.close());
    const client = new AzureOpenAIClient({ endpoint: keyless.url, auth: { kind: 'apiKey', apiKey: keyless.apiKey }, retry: { maxRetries: 0 } });
    closers.push(() => client.close());
    await rejects(client.createChatCompletion({ deployment: 'gpt-4o', messages }), ServiceError, (e) => {
      assert.equal(e.code, 'AuthenticationTypeDisabled');
      assert.match(e.message, /switch it to Entra ID/);
    });
    const { client: tokenClient } = dataClient(new TokenCache(credentialSource(secretCredential(issuer), 'client secret')), keyless.url);
    assert.ok((await tokenClient.createChatCompletion({ deployment: 'gpt-4o', messages })).choices.length);
  });

  it('discovers subscriptions, accounts and deployments through Resource Manager with a management token, page by page', async () => {
    const cache = new TokenCache(credentialSource(secretCredential(issuer), 'client secret'));
    const arm = new ArmClient({ endpoint: emu.url, auth: bearerAuth(cache, [MANAGEMENT_SCOPE], 'management'), retry: { maxRetries: 0 } });
    closers.push(() => arm.close());
    const subs = await arm.listSubscriptions();
    assert.deepEqual(subs.map((s) => s.displayName), ['Emulator Subscription']);
    const accounts = await arm.listAccounts(subs[0].subscriptionId);
    assert.deepEqual(accounts.map((a) => a.name), ['emulator-openai'], 'only OpenAI / AIServices accounts');
    assert.equal(accounts[0].endpoint, `${emu.url}/`);
    const deployments = await arm.listDeployments(accounts[0].id);
    assert.equal(deployments.length, DEFAULT_CONFIG.deployments.length, 'every page of one deployment each was followed');
    const gpt4o = deployments.find((d) => d.name === 'gpt-4o')!;
    assert.deepEqual(
      { version: gpt4o.modelVersion, sku: gpt4o.sku, capacity: gpt4o.capacity, rpm: gpt4o.rateLimits?.requestsPerMinute },
      { version: '2024-11-20', sku: 'GlobalStandard', capacity: 50, rpm: 300 },
    );
  });

  it('Resource Manager rejects a data-plane token, and a principal without a role gets a message naming the role', async () => {
    const dataToken = new TokenCache(credentialSource(secretCredential(issuer), 'client secret'));
    const arm = new ArmClient({ endpoint: emu.url, auth: bearerAuth(dataToken, ['https://cognitiveservices.azure.com/.default'], 'management'), retry: { maxRetries: 0 } });
    closers.push(() => arm.close());
    await rejects(arm.listSubscriptions(), ServiceError, (e) => {
      assert.equal(e.code, 'InvalidAuthenticationTokenAudience');
      assert.match(e.message, /Resource Manager rejected the token/);
    });
    const noRole = new TokenCache(credentialSource(secretCredential(issuer, issuer.clients[1]), 'client secret'));
    const arm2 = new ArmClient({ endpoint: emu.url, auth: bearerAuth(noRole, [MANAGEMENT_SCOPE], 'management'), retry: { maxRetries: 0 } });
    closers.push(() => arm2.close());
    // As Resource Manager does: the subscriptions it can see (none), then 403 on what it cannot.
    assert.deepEqual(await arm2.listSubscriptions(), []);
    await rejects(arm2.listAccounts(emu.config.subscriptions[0].subscriptionId), ServiceError, (e) => {
      assert.equal(e.status, 403);
      assert.match(e.message, /"Reader" role/);
    });
  });

  describe('Azure CLI credential (AzureCliCredential runs `az` from PATH)', () => {
    let bin: string;
    let savedPath: string | undefined;
    before(() => {
      bin = mkdtempSync(join(tmpdir(), 'aoai-az-'));
      savedPath = process.env.PATH;
      process.env.PATH = `${bin}:${process.env.PATH}`;
    });
    after(() => {
      process.env.PATH = savedPath;
      rmSync(bin, { recursive: true, force: true });
    });
    /** An `az` that answers `account get-access-token` as the documented JSON, or fails like a signed-out CLI. */
    function installAz(script: string) {
      writeFileSync(join(bin, 'az'), `#!/bin/sh\n${script}\n`);
      chmodSync(join(bin, 'az'), 0o755);
    }

    it('gets a token for the resource the scope names and chats with it', async () => {
      const token = await issuer.mint({ oid: issuer.clients[0].oid }, { audience: 'https://ai.azure.com', expiresInSeconds: 3600 });
      const expires = Math.floor(Date.now() / 1000) + 3600;
      installAz(
        `case "$*" in *"--resource https://ai.azure.com"*) ;; *) echo "unexpected: $*" >&2; exit 1;; esac\n` +
          `echo '{"accessToken":"${token}","expiresOn":"2099-01-01 00:00:00.000000","expires_on":${expires},"subscription":"s","tenant":"${issuer.tenantId}","tokenType":"Bearer"}'`,
      );
      const { client, auth } = dataClient(new TokenCache(identitySource('azureCli', { cloud: resolveCloud('AzureCloud') })));
      const res = await client.createChatCompletion({ deployment: 'gpt-4o', messages });
      assert.ok(res.choices.length);
      assert.equal(auth.scope, 'https://ai.azure.com/.default');
    });

    it('says to run az login when the CLI is signed out', async () => {
      installAz(`echo "ERROR: Please run 'az login' to setup account." >&2; exit 1`);
      const { client } = dataClient(new TokenCache(identitySource('azureCli', { cloud: resolveCloud('AzureCloud') }), 'contoso.onmicrosoft.com'));
      await rejects(client.createChatCompletion({ deployment: 'gpt-4o', messages }), AuthError, (e) => {
        assert.match(e.message, /Run "az login --tenant contoso.onmicrosoft.com"/);
      });
    });
  });
});
