import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCloudflaredHostname, parseDevTunnelUrl, parseNgrokApi, parseNgrokLog, tunnelOrigin } from '../../src/tunnels/parsers';
import { CloudflaredTunnel, DevTunnel, NgrokTunnel } from '../../src/tunnels/providers';
import type { Tunnel } from '../../src/tunnels/tunnel';

/** A stand-in for a tunnel CLI: a Node script on disk, run as the provider runs its binary. */
function standIn(dir: string, name: string, script: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!${process.execPath}\n${script}\n// A stand-in never outlives its test.\nsetTimeout(() => process.exit(0), 60_000);\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('tunnel URLs read from local ports and CLI output are the provider\'s own', () => {
  let dir: string;
  let tunnel: Tunnel | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'aoai-tunnel-'));
  });
  afterEach(async () => {
    await tunnel?.stop();
    tunnel = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('cloudflared: its metrics port answering a look-alike host first, the real quick tunnel host is the one taken', async function () {
    this.timeout(60_000);
    // The metrics port named on the command line answers a look-alike host twice, then the real one.
    standIn(
      dir,
      'cloudflared',
      `const port = Number(process.argv[process.argv.indexOf('--metrics') + 1].split(':')[1]);
let n = 0;
const hosts = ['abc.trycloudflare.com.attacker.example', 'attacker.example/abc.trycloudflare.com', 'real-quick-tunnel.trycloudflare.com'];
require('node:http').createServer((req, res) => res.end(JSON.stringify({ hostname: hosts[Math.min(n++, 2)] }))).listen(port, '127.0.0.1');`,
    );
    tunnel = await new CloudflaredTunnel(undefined, dir).start(1234);
    assert.equal(tunnel.url, 'https://real-quick-tunnel.trycloudflare.com');
  });

  it('Dev Tunnels: a look-alike URL printed before the real one is skipped', async function () {
    this.timeout(60_000);
    const binary = standIn(
      dir,
      'devtunnel',
      `console.log('Connect via browser: https://abc.devtunnels.ms.attacker.example, https://abc-inspect.devtunnels.ms.attacker.example');
setTimeout(() => console.log('Connect via browser: https://k3m9qz1x-1234.euw.devtunnels.ms, https://k3m9qz1x-1234-inspect.euw.devtunnels.ms'), 300);`,
    );
    tunnel = await new DevTunnel(async () => binary).start(1234);
    assert.equal(tunnel.url, 'https://k3m9qz1x-1234.euw.devtunnels.ms');
  });

  it('ngrok: its agent API on port 4040 offering a look-alike public URL for our port is not taken', async function () {
    this.timeout(60_000);
    let api: Server | undefined;
    let calls = 0;
    const localPort = 1234;
    const tunnels = () =>
      JSON.stringify({
        tunnels: [
          { public_url: 'https://evil.ngrok-free.app.attacker.example', config: { addr: `http://localhost:${localPort}` } },
          ...(++calls > 2 ? [{ public_url: 'https://3f2a.ngrok-free.app', config: { addr: `http://localhost:${localPort}` } }] : []),
        ],
      });
    try {
      api = await new Promise<Server>((resolve, reject) => {
        const s = createServer((_req, res) => res.end(tunnels()));
        s.once('error', reject);
        s.listen(4040, '127.0.0.1', () => resolve(s));
      });
    } catch {
      this.skip(); // Port 4040 is taken on this machine (a real ngrok agent?).
    }
    try {
      const binary = standIn(dir, 'ngrok', `console.log(JSON.stringify({ msg: 'started tunnel', url: 'https://x.ngrok.io.attacker.example' }));`);
      tunnel = await new NgrokTunnel(async () => binary).start(localPort);
      assert.equal(tunnel.url, 'https://3f2a.ngrok-free.app');
      assert.ok(calls >= 3, 'the look-alike was offered and passed over');
    } finally {
      api?.close();
    }
  });

  it('each pattern is anchored to its provider\'s domain', () => {
    assert.equal(parseDevTunnelUrl('Connect via browser: https://abc.devtunnels.ms.attacker.example'), undefined);
    assert.equal(parseDevTunnelUrl('https://user@abc.devtunnels.ms'), undefined);
    assert.equal(parseNgrokLog('t=1 msg="started tunnel" url=https://x.ngrok-free.app.evil.example'), undefined);
    assert.equal(parseNgrokLog('t=1 msg="started tunnel" url=https://x.ngrok-free.app'), 'https://x.ngrok-free.app');
    assert.equal(parseNgrokApi(JSON.stringify({ tunnels: [{ public_url: 'http://x.ngrok-free.app', config: { addr: '1' } }] }), 1), undefined, 'plain http');
    assert.equal(parseCloudflaredHostname('api.trycloudflare.com'), undefined);
    assert.equal(parseCloudflaredHostname({}), undefined);
    assert.equal(tunnelOrigin('https://a.b.devtunnels.ms:8443/path?q', ['devtunnels.ms']), 'https://a.b.devtunnels.ms:8443');
    assert.equal(tunnelOrigin('https://devtunnels.ms', ['devtunnels.ms']), undefined, 'the provider\'s own host is not a tunnel');
    assert.equal(tunnelOrigin('https://a_b.devtunnels.ms', ['devtunnels.ms']), undefined);
    assert.equal(tunnelOrigin('not a url', ['devtunnels.ms']), undefined);
  });
});
