/**
 * The extension's calls take VS Code's own network support (the extension host's fetch): with
 * http.proxy pointing at a real proxy on loopback, a call to a remote endpoint goes through it,
 * credentials included, and http.proxySupport "off" turns it off for us as for VS Code. VS Code
 * sends localhost, 127.0.0.1 and ::1 direct, so the emulator is reached at 127.0.0.2 (loopback
 * too, but not for VS Code). A remote host that does not exist (.invalid): the proxy is asked and
 * cannot go further, which is all that needs to show, and the user sees an error naming the proxy.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { MessageNode } from '../../src/vscode/tree/nodes';
import { startProxy, type TestProxy } from '../support/proxyServer';
import { clearConnections, eventually, settingsAndLogFiles, workbench } from './support';
import { readFileSync } from 'node:fs';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { ChatPanel } from '../../src/vscode/chat/chatPanel';
import type { HostMessage } from '../../src/webview/chat/protocol';

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
      const r = await eventually(() => api.services.events.list().find((x) => x.eventType === 'batch.completed' && x.forward));
      // VS Code's fetch forwards plain http to the proxy (or tunnels it): either way the proxy is asked for the app.
      assert.ok(proxy.targets.some((t) => t.includes(`app.${REMOTE}:8443`)), `the proxy was asked for the app: ${proxy.targets}`);
      assert.ok(r.forward?.error || (r.forward?.status ?? 0) >= 500, `the proxy could not reach a host that does not exist: ${JSON.stringify(r.forward)}`);
    } finally {
      await exec('stopListening', { deleteEndpoint: true });
      await settings.update('webhooks.forwardTo', undefined, vscode.ConfigurationTarget.Global);
      await emu.close();
    }
  });

  describe('through VS Code\'s network support', () => {
    let emu: Emulator;
    let open: TestProxy;
    before(async () => {
      emu = await startEmulator({ host: '127.0.0.2' });
      open = await startProxy();
    });
    afterEach(async () => {
      await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await http().update('proxySupport', undefined, vscode.ConfigurationTarget.Global);
      await clearConnections();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
    after(async () => {
      await emu?.close();
      await open?.close();
    });

    /**
     * Lists the emulator's deployments and, when that worked, sends one chat message: what the user
     * sees of each. The proxy's tunnels are dropped before each, so each needs a CONNECT of its own.
     */
    async function listAndChat(label: string, proxies: TestProxy[]): Promise<{ rows: MessageNode[]; reply?: string; tunnels: number[] }> {
      const port = new URL(emu.url).port;
      const tunnels = () => proxies.flatMap((p) => p.targets).filter((t) => t.includes(`127.0.0.2:${port}`)).length;
      const counts: number[] = [];
      for (const p of proxies) p.dropTunnels();
      const conn = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label }))!;
      const api = await workbench();
      const node = await eventually(() => api.services.tree.connectionNode(conn.id));
      const rows = (await api.services.tree.settledChildren(node.deployments)) as MessageNode[];
      counts.push(tunnels());
      if (rows[0]?.kind === 'error') return { rows, tunnels: counts };
      for (const p of proxies) p.dropTunnels();
      const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
      const panel: ChatPanel = api.services.chat.panel(res!.conversationId)!;
      const posted: HostMessage[] = [];
      panel.onDidPost((m) => posted.push(m));
      await panel.receive({ type: 'send', text: 'hello through VS Code' });
      await panel.idle();
      counts.push(tunnels());
      const done = posted.find((m): m is Extract<HostMessage, { type: 'turnFinished' }> => m.type === 'turnFinished');
      return { rows, reply: done?.turn.content, tunnels: counts };
    }

    it('the chat and the deployment listing go through http.proxy; with http.proxySupport "off" neither does', async () => {
      await http().update('proxy', open.url, vscode.ConfigurationTarget.Global);
      const proxied = await listAndChat('Emulator behind the proxy', [open]);
      assert.match(proxied.reply ?? '', /You said: hello through VS Code/, `the chat answered: ${proxied.rows.map((r) => r.detail)}`);
      // VS Code's fetch tunnels plain http too: a CONNECT for the listing, another for the chat.
      assert.ok(proxied.tunnels[0]! >= 1 && proxied.tunnels[1]! > proxied.tunnels[0]!, `the proxy saw the listing, then the chat: ${proxied.tunnels} ${open.targets}`);

      open.targets.length = 0;
      await http().update('proxySupport', 'off', vscode.ConfigurationTarget.Global);
      const direct = await listAndChat('Emulator, proxy support off', [open]);
      assert.match(direct.reply ?? '', /You said: hello through VS Code/);
      assert.deepEqual(open.targets, [], 'with proxy support off VS Code sends nothing to the proxy, and neither do we');
    });

    it('credentials in http.proxy reach the proxy as Basic; without them the 407 names the proxy', async () => {
      proxy.targets.length = 0;
      await http().update('proxy', proxy.url.replace('//', `//alice:${PASSWORD}@`), vscode.ConfigurationTarget.Global);
      const signedIn = await listAndChat('Emulator behind the authenticating proxy', [proxy]);
      assert.match(signedIn.reply ?? '', /You said: hello through VS Code/, `the chat answered: ${signedIn.rows.map((r) => r.detail)}`);
      assert.ok(signedIn.tunnels[1]! >= 2, `the proxy let the listing and the chat through: ${proxy.targets}`);

      await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
      const refused = await listAndChat('Emulator, no proxy credentials', [proxy]);
      assert.equal(refused.rows[0]?.kind, 'error');
      assert.match(refused.rows[0]?.detail ?? '', new RegExp(`proxy ${proxy.url.replace(/[/.]/g, '\\$&')} asks for a user name and password \\(407\\)`));
    });
  });
});
