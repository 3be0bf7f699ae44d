/**
 * A tunnel that drops, in VS Code: cloudflared's stand-in (test/fixtures/tunnels/cloudflared-restarting.sh)
 * sits where a downloaded cloudflared goes; killing its process is the tunnel dropping. Reopened,
 * the endpoint follows and the output says so; when it cannot come back, the status bar and the
 * Webhook Events view say so, with what to do.
 */
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { closeEmulatedService, emulatedService, eventually, execAsOurs, settingsAndLogFiles, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('a dropped tunnel in VS Code', function () {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;
  let dir: string;
  let binDir: string;
  const pid = () => Number(readFileSync(join(dir, 'pid'), 'utf8'));
  const run = (n: number) => `https://run-${n}-sunset-retreat.trycloudflare.com`;

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    ({ emu, conn, client } = await emulatedService('Tunnel health emulator'));
    const api = await workbench();
    // Where a cloudflared downloaded on consent is found (the host and the tests share the process and its env).
    binDir = join(api.services.listener.storageDir, 'cloudflared');
    mkdirSync(binDir, { recursive: true });
    copyFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tunnels', 'cloudflared-restarting.sh'), join(binDir, 'cloudflared'));
    chmodSync(join(binDir, 'cloudflared'), 0o755);
    dir = mkdtempSync(join(tmpdir(), 'tunnel-health-'));
    process.env.STANDIN_DIR = dir;
  });
  after(async () => {
    if (process.platform !== 'linux') return;
    await exec('stopListening', { deleteEndpoint: true });
    await exec('deleteCloudflared');
    delete process.env.STANDIN_DIR;
    rmSync(dir, { recursive: true, force: true });
    await closeEmulatedService({ emu, client });
  });

  it('a killed tunnel is reopened by itself: the endpoint points at its new URL and the output says so', async () => {
    const api = await workbench();
    const res = await exec<{ publicUrl: string; endpointId: string }>('startListening', {
      connectionId: conn.id,
      provider: 'cloudflared',
      endpoint: { mode: 'create', name: 'dropped', eventTypes: ['response.completed'] },
    });
    assert.equal(res?.publicUrl, run(1));
    process.kill(pid(), 'SIGKILL');
    await eventually(() => api.services.listener.state?.publicUrl === run(2), 20_000);
    const endpoint = await eventually(async () => (await client.listWebhookEndpointsPage()).data.find((e) => e.id === res.endpointId && e.url === `${run(2)}/webhook`), 10_000);
    assert.ok(endpoint, 'the endpoint follows the new URL');
    await eventually(() => settingsAndLogFiles().some((f) => readFileSync(f, 'utf8').includes(`Endpoint ${res.endpointId} now points at ${run(2)}/webhook.`)), 10_000);
    assert.match(api.services.listener.statusItem.text, /^\$\(radio-tower\) Listening · \d+$/);
    assert.equal(api.eventsView.message, `Listening at ${run(2)}/webhook for "Tunnel health emulator".`);
  });

  it('a tunnel that cannot come back: the status bar and the Webhook Events view say so, with what to do', async () => {
    // The downloaded cloudflared removed while listening: no attempt can mend that, so the keeper
    // gives up at the first (the six paced attempts of a refusing server are the core's tests).
    const api = await workbench();
    if (!api.services.listener.running) await exec('startListening', { connectionId: conn.id, provider: 'cloudflared', endpoint: { mode: 'skip' } });
    const standIn = join(binDir, 'cloudflared');
    rmSync(standIn);
    process.kill(pid(), 'SIGKILL');
    // The first attempt waits 1 s: the status bar says so meanwhile.
    await eventually(() => api.services.listener.statusItem.text.startsWith('$(sync~spin) Reopening tunnel'), 10_000);
    await eventually(() => api.services.listener.state?.tunnel?.health.kind === 'failed', 30_000);
    const item = api.services.listener.statusItem;
    assert.match(item.text, /^\$\(warning\) Tunnel down · \d+$/);
    assert.deepEqual(item.backgroundColor, new vscode.ThemeColor('statusBarItem.warningBackground'));
    const todo = [
      'The tunnel (Cloudflare quick tunnel) dropped and could not be reopened: deliveries no longer arrive.',
      'Run "Stop Listening", then "Start Listening", or pick another tunnel in "aoaiWorkbench.tunnel.provider".',
    ].join(' ');
    assert.equal(api.eventsView.message, todo);
    assert.ok((item.tooltip as vscode.MarkdownString).value.includes(todo));
    assert.ok(settingsAndLogFiles().some((f) => /The tunnel \(Cloudflare quick tunnel\) could not be reopened after 1 attempt \(cloudflared is not installed/.test(readFileSync(f, 'utf8'))));
  });
});
