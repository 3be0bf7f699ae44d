/**
 * VS Code's proxy settings reach the extension's calls: with http.proxy pointing at a real proxy
 * on loopback, a connection to a remote endpoint is tunnelled through it, credentials included.
 * The endpoint's host does not exist (.invalid): the proxy sees the CONNECT and cannot go further,
 * which is all this needs to show, and the user sees an error that names the proxy.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { MessageNode } from '../../src/vscode/tree/nodes';
import { startProxy, type TestProxy } from '../support/proxyServer';
import { clearConnections, eventually, settingsAndLogFiles, workbench } from './support';
import { readFileSync } from 'node:fs';
import { startEmulator } from '../../src/emulator/server';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);
const REMOTE = 'aoai-workbench-proxy-test.invalid';
const PASSWORD = 'proxy-pass-4d1c9e';

describe('VS Code proxy settings', () => {
  let proxy: TestProxy;
  const http = () => vscode.workspace.getConfiguration('http');

  before(async () => {
    proxy = await startProxy({ credentials: `alice:${PASSWORD}` });
    await clearConnections();
  });
  after(async () => {
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await clearConnections();
    await proxy.close();
  });

  async function webhooksRow(label: string): Promise<MessageNode> {
    const info = await exec<ConnectionInfo>('addConnection', { endpoint: `https://${REMOTE}`, apiKey: 'k-123456', label });
    const api = await workbench();
    const node = await eventually(() => api.services.tree.connectionNode(info!.id));
    const [row] = (await api.services.tree.settledChildren(node.webhooks)) as MessageNode[];
    await exec('removeConnection', { connectionId: info!.id });
    return row;
  }

  it('calls go through http.proxy with its credentials; a refusal names the proxy, never the password', async () => {
    await http().update('proxy', proxy.url.replace('//', `//alice:${PASSWORD}@`), vscode.ConfigurationTarget.Global);
    const row = await webhooksRow('Behind the proxy');
    assert.ok(proxy.targets.includes(`${REMOTE}:443`), `the proxy was asked for ${REMOTE}: ${proxy.targets}`);
    assert.equal(row.kind, 'error');
    assert.match(row.detail ?? '', new RegExp(`proxy ${proxy.url.replace(/[/.]/g, '\\$&')} could not connect`));

    await http().update('proxy', proxy.url.replace('//', '//alice:wrong@'), vscode.ConfigurationTarget.Global);
    const refused = await webhooksRow('Wrong proxy password');
    assert.match(refused.detail ?? '', /asks for a user name and password \(407\)/);
    for (const f of settingsAndLogFiles().filter((f) => !f.endsWith('settings.json'))) assert.ok(!readFileSync(f, 'utf8').includes(PASSWORD), `the proxy password is in ${f}`);
  });

  it("webhook traffic too: a delivery forwarded to a remote app goes through http.proxy", async () => {
    await http().update('proxy', proxy.url.replace('//', `//alice:${PASSWORD}@`), vscode.ConfigurationTarget.Global);
    const app = `http://app.${REMOTE}:8443/webhook`;
    const settings = vscode.workspace.getConfiguration('aoaiWorkbench');
    await settings.update('webhooks.forwardTo', app, vscode.ConfigurationTarget.Global);
    const emu = await startEmulator();
    try {
      const conn = await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label: 'Proxy listener' });
      await exec('startListening', { connectionId: conn!.id, endpoint: { mode: 'create', name: 'proxied', eventTypes: ['batch.completed'] } });
      assert.deepEqual(await exec('sendTestEvent', { eventType: 'batch.completed' }), { status: 200, sentBy: 'service' });
      const api = await workbench();
      const r = await eventually(() => api.services.listener.events.list().find((x) => x.eventType === 'batch.completed' && x.forward));
      assert.ok(proxy.targets.includes(`app.${REMOTE}:8443`), `the proxy was asked for the app: ${proxy.targets}`);
      assert.equal(r.forward?.status, undefined, 'the proxy could not reach a host that does not exist');
      assert.ok(r.forward?.error, 'the forward says why');
    } finally {
      await exec('stopListening', { deleteEndpoint: true });
      await settings.update('webhooks.forwardTo', undefined, vscode.ConfigurationTarget.Global);
      await emu.close();
    }
  });
});
