/**
 * Corporate proxies: every outgoing call (service, Resource Manager, the cloudflared download)
 * goes through a real HTTP CONNECT proxy on loopback when the settings or HTTPS_PROXY name one.
 * Loopback targets normally bypass any proxy, so these tests set `proxyLoopback` (tests only) to
 * make the loopback emulator a "remote" service reachable through the proxy; one test checks the
 * bypass itself with the default.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ArmClient } from '../../src/service/arm';
import { AzureOpenAIClient } from '../../src/service/client';
import type { ProxySettings } from '../../src/service/proxyRules';
import { proxyFor } from '../../src/service/proxyRules';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { cloudflaredAsset, downloadCloudflared } from '../../src/tunnels/cloudflaredDownload';
import { freePort } from '../support/ports';
import { startProxy, type TestProxy } from '../support/proxyServer';
import { failure } from '../support/serviceFailure';
import { startReleaseServer } from '../support/releaseServer';
import { startTestIssuer } from '../support/testIssuer';
import { scratchDir } from '../support/scratchDir';

const run = promisify(execFile);
const messages = [{ role: 'user' as const, content: 'hello through the proxy' }];

/** Runs `fn` with these environment variables, then puts the old values back. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const old = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(old)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('corporate proxy: outgoing calls through a real CONNECT proxy', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let open: TestProxy;
  let authenticating: TestProxy;
  const clients: Array<{ close(): Promise<void> }> = [];
  const emuHost = () => new URL(emu.url).host;
  const client = (proxy: ProxySettings) => {
    const c = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey }, retry: { maxRetries: 0 }, proxy });
    clients.push(c);
    return c;
  };

  before(async () => {
    emu = await startEmulator();
    open = await startProxy();
    authenticating = await startProxy({ credentials: 'alice:s3cret-proxy-pass' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    open.targets.length = 0;
    authenticating.targets.length = 0;
  });
  after(async () => {
    await emu?.close();
    await open?.close();
    await authenticating?.close();
  });

  it('chats and streams through an authenticating proxy named in the settings (user:password in the URL)', async () => {
    const proxyUrl = authenticating.url.replace('//', '//alice:s3cret-proxy-pass@');
    const c = client({ url: proxyUrl, proxyLoopback: true });
    const res = await c.createChatCompletion({ deployment: 'gpt-4o', messages });
    assert.match(res.choices[0].message.content ?? '', /hello through the proxy/);
    let streamed = '';
    for await (const chunk of c.streamChatCompletion({ deployment: 'gpt-4o', messages })) streamed += chunk.choices[0]?.delta?.content ?? '';
    assert.match(streamed, /hello through the proxy/);
    assert.ok(authenticating.targets.includes(emuHost()), `the proxy tunnelled to ${emuHost()}: ${authenticating.targets}`);
  });

  it('a proxy that refuses the credentials: the error names the proxy and the fix, never the password', async () => {
    const c = client({ url: authenticating.url.replace('//', '//alice:wrong-password@'), proxyLoopback: true });
    const err = await failure(c.listDeployments());
    assert.equal(err.code, 'EPROXY');
    assert.equal(err.mayHaveActed, false, 'a refused tunnel never reached the service');
    assert.match(err.message, new RegExp(`proxy ${authenticating.url.replace(/[/.]/g, '\\$&')} asks for a user name and password \\(407\\)`));
    assert.ok(!err.message.includes('wrong-password') && !err.message.includes('alice'), err.message);
  });

  it('a proxy that refuses the host (403) or cannot reach it (502): each says what to do', async () => {
    for (const [status, said] of [
      [403, /does not allow this host \(403\): ask its administrator, or list the host in http\.noProxy/],
      [502, /could not connect to it \(502\): check the endpoint URL/],
    ] as const) {
      const refusing = createServer();
      refusing.on('connect', (_req, socket: Socket) => socket.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\n\r\n`));
      await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
      try {
        const err = await failure(client({ url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, proxyLoopback: true }).listDeployments());
        assert.deepEqual([err.code, err.status], ['EPROXY', status]);
        assert.match(err.message, said);
      } finally {
        refusing.close();
      }
    }
  });

  it('a proxy that is not there: the error says the call went through the proxy', async () => {
    const gone = `http://127.0.0.1:${await freePort()}`;
    const err = await failure(client({ url: gone, proxyLoopback: true }).listDeployments());
    assert.equal(err.kind, 'network');
    assert.match(err.message, new RegExp(`through the proxy ${gone.replace(/[/.]/g, '\\$&')}`));
  });

  it('HTTP(S)_PROXY from the environment applies when the settings name no proxy; a NO_PROXY entry goes direct', async () => {
    await withEnv({ HTTP_PROXY: open.url, HTTPS_PROXY: open.url, NO_PROXY: '' }, async () => {
      await client({ proxyLoopback: true }).listDeployments();
    });
    assert.deepEqual(open.targets, [emuHost()]);
    open.targets.length = 0;
    await withEnv({ HTTP_PROXY: open.url, HTTPS_PROXY: open.url, NO_PROXY: `example.org, ${new URL(emu.url).hostname}` }, async () => {
      await client({ proxyLoopback: true }).listDeployments();
    });
    assert.deepEqual(open.targets, [], 'NO_PROXY sent it direct');
  });

  it('http.noProxy from the settings goes direct; loopback is never proxied outside tests', async () => {
    await client({ url: open.url, proxyLoopback: true, noProxy: [`*.example.com`, emuHost()] }).listDeployments();
    await client({ url: open.url }).listDeployments();
    assert.deepEqual(open.targets, []);
  });

  it('Resource Manager calls go through the proxy too', async () => {
    const arm = new ArmClient({
      endpoint: emu.url,
      auth: { kind: 'bearer', plane: 'management', getToken: async () => 'not-a-token' },
      retry: { maxRetries: 0 },
      proxy: { url: open.url, proxyLoopback: true },
    });
    clients.push(arm);
    // The emulator refuses the token: what matters is that the request reached it via the proxy.
    const err = await failure(arm.listSubscriptions());
    assert.equal(err.status, 401);
    assert.deepEqual(open.targets, [emuHost()]);
  });

  it('the cloudflared download goes through the proxy, redirect included', async function () {
    if (!cloudflaredAsset() || process.platform === 'win32') this.skip();
    const standin = Buffer.from('#!/bin/sh\necho "cloudflared version 2099.1.0 (built through a proxy)"\n');
    const releases = await startReleaseServer(standin);
    try {
      const proxy = { url: authenticating.url.replace('//', '//alice:s3cret-proxy-pass@'), proxyLoopback: true };
      const sha256 = createHash('sha256').update(standin).digest('hex');
      const got = await downloadCloudflared({ storageDir: scratchDir('aoai-proxy-'), baseUrl: `${releases.url}/releases`, sha256, version: '2099.1.0', proxy });
      assert.equal(got.version, '2099.1.0');
      const host = new URL(releases.url).host;
      assert.ok(authenticating.targets.length > 0 && authenticating.targets.every((t) => t === host), `tunnels: ${authenticating.targets}`);
      assert.deepEqual(releases.requests, ['/releases/' + cloudflaredAsset(), '/assets/' + cloudflaredAsset()], 'the redirect and the file');
    } finally {
      await releases.close();
    }
  });

  it('sign-in through @azure/identity (DefaultAzureCredential) goes through the authenticating proxy', async () => {
    const issuer = await startTestIssuer();
    try {
      const [app] = issuer.clients;
      const proxy = { url: authenticating.url.replace('//', '//alice:s3cret-proxy-pass@'), proxyLoopback: true };
      const env = {
        ...process.env,
        NODE_EXTRA_CA_CERTS: issuer.caFile,
        AZURE_TENANT_ID: issuer.tenantId,
        AZURE_CLIENT_ID: app.id,
        AZURE_CLIENT_SECRET: app.secret,
        AOAI_TEST_AUTHORITY: issuer.authorityHost,
        AOAI_TEST_PROXY: JSON.stringify(proxy),
      };
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'fixtures', 'proxy', 'signIn.ts')], { env }).catch((e: { stdout: string }) => e);
      assert.ok((JSON.parse(stdout) as { tokenLength?: number }).tokenLength! > 20, stdout);
      assert.ok(authenticating.targets.includes(new URL(issuer.authorityHost).host), `the proxy tunnelled to the authority: ${authenticating.targets}`);
    } finally {
      await issuer.close();
    }
  });

  it('picks the proxy per target: settings before the environment, NO_PROXY suffixes and ports, loopback bypass', () => {
    const env = { HTTPS_PROXY: 'http://env-proxy:3128', NO_PROXY: '.internal.example, direct.example:8443' };
    const at = (u: string, s: ProxySettings = {}) => proxyFor(new URL(u), s, env)?.host;
    assert.equal(at('https://r.openai.azure.com'), 'env-proxy:3128');
    assert.equal(at('https://r.openai.azure.com', { url: 'corp:8080' }), 'corp:8080');
    assert.equal(at('https://a.internal.example'), undefined);
    assert.equal(at('https://direct.example:8443'), undefined);
    assert.equal(at('https://direct.example'), 'env-proxy:3128', 'the NO_PROXY entry names another port');
    assert.equal(at('https://management.azure.com', { noProxy: ['*.azure.com'] }), undefined);
    for (const loopback of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:2', 'http://app.localhost']) assert.equal(at(loopback), undefined, loopback);
    assert.equal(at('http://127.0.0.1:8080', { proxyLoopback: true }), undefined, 'plain http takes HTTP_PROXY, which is not set');
  });
});
