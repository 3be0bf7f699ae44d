/** The emulator under bad input, slow listeners, and as a command-line program. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { eventually } from '../support/receiver';

describe('emulator', () => {
  let emu: Emulator;
  const call = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (init.key !== null) headers['api-key'] = init.key ?? emu.apiKey;
    return fetch(`${emu.url}${path}`, { ...init, headers });
  };
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code?: string; message: string; param?: string } }).error;

  before(async () => {
    emu = await startEmulator({ config: { maxBodyBytes: 1024, delivery: { maxAttempts: 3, retryBaseMs: 50, timeoutMs: 300 } } });
  });
  after(() => emu.close());

  it('answers bad input with the service error shape, never a crash', async () => {
    const chat = '/openai/v1/chat/completions';
    let res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":' });
    assert.equal(res.status, 400);
    assert.match((await errorOf(res)).message, /could not parse the JSON body/);
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    assert.equal(res.status, 415);
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: 'x'.repeat(5000) }) });
    assert.equal(res.status, 413);
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2]' });
    assert.equal(res.status, 400);
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'wizard', content: 'x' }] }) });
    assert.equal((await errorOf(res)).param, 'messages[0].role');
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }) });
    assert.equal((await errorOf(res)).param, 'model');
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', temperature: 9, messages: [{ role: 'user', content: 'x' }] }) });
    assert.equal((await errorOf(res)).param, 'temperature');
    // Still healthy afterwards.
    res = await call(chat, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }) });
    assert.equal(res.status, 200);
  });

  it('answers unknown routes with 404 and wrong methods with 405 and Allow', async () => {
    let res = await call('/openai/v1/nothing-here');
    assert.equal(res.status, 404);
    assert.equal((await errorOf(res)).code, '404');
    res = await call('/openai/v1/chat/completions', { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
  });

  it('requires api-version on the deployment route and on Resource Manager routes', async () => {
    let res = await call('/openai/deployments/gpt-4o/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.equal(res.status, 400);
    assert.match((await errorOf(res)).message, /api-version/);
    res = await call('/subscriptions');
    assert.equal(res.status, 401, 'Resource Manager takes tokens, not the key (api-version: test/loopback/emulator-auth.test.ts)');
    res = await call('/openai/deployments?api-version=2024-10-21');
    assert.equal(res.status, 404, 'the legacy list is gone from newer api-versions');
  });

  it('checks the key on every route, in either header, and carries a request id', async () => {
    assert.equal((await call('/openai/v1/models', { key: null })).status, 401);
    assert.equal((await call('/openai/v1/models', { key: 'wrong' })).status, 401);
    assert.equal((await call('/openai/v1/models', { key: null, headers: { authorization: 'Bearer wrong' } })).status, 401);
    const ok = await call('/openai/v1/models', { key: null, headers: { authorization: `Bearer ${emu.apiKey}` } });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('apim-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('refuses to update the signing secret and validates every field before changing any', async () => {
    const created = (await (
      await call('/openai/v1/dashboard/webhook_endpoints', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'a', url: 'https://x.test', event_types: ['batch.failed'] }),
      })
    ).json()) as { id: string };
    const path = `/openai/v1/dashboard/webhook_endpoints/${created.id}`;
    let res = await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ signing_secret: 'whsec_x' }) });
    assert.equal((await errorOf(res)).param, 'signing_secret');
    res = await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'b', url: 'ftp://x' }) });
    assert.equal((await errorOf(res)).param, 'url');
    const now = (await (await call(path)).json()) as { name: string };
    assert.equal(now.name, 'a', 'the valid name was not applied when the url was invalid');
  });

  it('counts a listener that hangs as a timeout, and one that is down as a connection error, and retries both', async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const hangUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/h`;
    const down = createServer();
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}/d`;
    await new Promise<void>((r) => down.close(() => r()));
    try {
      for (const url of [hangUrl, downUrl]) {
        await call('/openai/v1/dashboard/webhook_endpoints', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'x', url, event_types: ['fine_tuning.job.failed'] }),
        });
      }
      await call('/emulator/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'fine_tuning.job.failed', data: { id: 'ftjob-1' } }) });
      const failed = await eventually(() => {
        const ds = emu.deliveries().filter((d) => d.eventType === 'fine_tuning.job.failed');
        return ds.length === 2 && ds.every((d) => d.state === 'failed') ? ds : undefined;
      }, 8000);
      const byUrl = Object.fromEntries(failed.map((d) => [d.url, d.attempts.map((a) => a.error)]));
      assert.deepEqual(byUrl[hangUrl], ['timeout', 'timeout', 'timeout']);
      assert.deepEqual(byUrl[downUrl], ['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('emulator CLI', function () {
  this.timeout(60_000);
  // The source, not dist/emulator.js: `npm run test:node` alone must not test a stale bundle.
  const cli = ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'emulator', 'cli.ts')];

  it('prints exactly the URL and key lines, serves requests, logs them to stderr and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [...cli, '--port', '0', '--api-key', 'cli-key'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    try {
      await eventually(() => stdout.split('\n').length >= 3);
      const lines = stdout.trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[0], /^AOAI_EMULATOR_URL=http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(lines[1], 'AOAI_EMULATOR_KEY=cli-key');
      const url = lines[0].split('=')[1];
      const res = await fetch(`${url}/openai/v1/models`, { headers: { 'api-key': 'cli-key' } });
      assert.equal(res.status, 200);
      await eventually(() => stderr.includes('GET /openai/v1/models 200'));
      assert.ok(!stderr.includes('cli-key'), 'the key is never logged');
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  it('explains bad arguments and exits 2', async () => {
    const child = spawn(process.execPath, [...cli, '--port', 'eighty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    assert.match(stderr, /--port must be a number/);
    assert.match(stderr, /Usage:/);
  });

  it('loads deployments from --config and reports a broken config file clearly', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'emu-'));
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ deployments: [{ name: 'custom', model: 'gpt-4o-mini' }] }));
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    const bad = spawn(process.execPath, [...cli, '--config', join(dir, 'bad.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    bad.stderr.on('data', (d) => (stderr += d));
    assert.equal((await once(bad, 'exit'))[0], 2);
    assert.match(stderr, /not valid JSON/);
    const good = spawn(process.execPath, [...cli, '--config', join(dir, 'good.json'), '--api-key', 'k'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    good.stdout.on('data', (d) => (out += d));
    try {
      await eventually(() => out.includes('AOAI_EMULATOR_KEY'));
      const url = /AOAI_EMULATOR_URL=(\S+)/.exec(out)![1];
      const list = (await (await fetch(`${url}/openai/deployments?api-version=2022-12-01`, { headers: { 'api-key': 'k' } })).json()) as { data: Array<{ id: string }> };
      assert.deepEqual(list.data.map((d) => d.id), ['custom']);
    } finally {
      good.kill('SIGINT');
    }
    assert.equal((await once(good, 'exit'))[0], 0);
  });
});
