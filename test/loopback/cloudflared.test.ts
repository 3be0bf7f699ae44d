/** cloudflared fetched on consent, and tunnel CLIs run as processes that stop with the tunnel. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLOUDFLARED_RELEASES,
  CLOUDFLARED_SHA256,
  CLOUDFLARED_VERSION,
  cloudflaredAsset,
  cloudflaredDownloadUrl,
  downloadCloudflared,
  downloadedCloudflaredPath,
} from '../../src/tunnels/cloudflaredDownload';
import { CloudflaredTunnel } from '../../src/tunnels/providers';
import { eventually } from '../support/receiver';
import { runTunnelProcess, TunnelError } from '../../src/tunnels/tunnel';
import { startReleaseServer } from '../support/releaseServer';
import { scratchDir } from '../support/scratchDir';
import { processAlive } from '../support/processes';

const STANDIN = join(__dirname, '..', 'fixtures', 'tunnels', 'cloudflared-standin.sh');
const standin = readFileSync(STANDIN);
/** The stand-in is served as the release file: its hash is the one expected. */
const sha256 = createHash('sha256').update(standin).digest('hex');
const storage = () => scratchDir('aoai-storage-');
const leftovers = (dir: string) => (existsSync(join(dir, 'cloudflared')) ? readdirSync(join(dir, 'cloudflared')) : []);

describe('cloudflared download (only after the user agreed)', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof startReleaseServer>>;
  before(async function () {
    if (!cloudflaredAsset()) this.skip();
    server = await startReleaseServer(standin);
  });
  after(() => server?.close());

  it('names Cloudflare\'s release file for each platform, and none where there is no build', () => {
    assert.equal(cloudflaredAsset('linux', 'x64'), 'cloudflared-linux-amd64');
    assert.equal(cloudflaredAsset('linux', 'arm64'), 'cloudflared-linux-arm64');
    assert.equal(cloudflaredAsset('win32', 'x64'), 'cloudflared-windows-amd64.exe');
    assert.equal(cloudflaredAsset('darwin', 'arm64'), 'cloudflared-darwin-arm64.tgz');
    assert.equal(cloudflaredAsset('freebsd', 'x64'), undefined);
  });

  it('a missing cloudflared is offered for download; once downloaded the tunnel runs it and stops it', async () => {
    const dir = storage();
    const tunnelProvider = new CloudflaredTunnel(dir, '');
    const before = await tunnelProvider.check();
    assert.ok(!before.ok && before.canDownload, 'missing, downloadable');
    assert.match(before.ok ? '' : before.message, /cloudflared is not installed/);
    const progress: number[] = [];
    const got = await downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/releases`, sha256, onProgress: (n, total) => progress.push(total ? n / total : NaN) });
    assert.equal(got.path, downloadedCloudflaredPath(dir));
    assert.equal(got.version, CLOUDFLARED_VERSION);
    assert.equal(got.sha256, sha256);
    assert.equal(progress.at(-1), 1, 'progress reaches 100%');
    assert.ok(statSync(got.path).mode & 0o100, 'executable');
    assert.deepEqual(leftovers(dir), ['cloudflared'], 'no partial files');
    assert.ok(server.requests.some((r) => r.startsWith('/assets/')), 'the redirect was followed');

    assert.deepEqual(await tunnelProvider.check(), { ok: true });
    const tunnel = await tunnelProvider.start(1);
    assert.equal(tunnel.url, 'https://marble-kinds-sunset-retreat.trycloudflare.com');
    let ended = false;
    void tunnel.closed.then(() => (ended = true));
    await tunnel.stop();
    assert.ok(ended, 'the process ended with the tunnel');
  });

  it('an error page instead of the program is refused, and nothing is kept', async () => {
    const dir = storage();
    await assert.rejects(
      downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/html`, sha256 }),
      (e: Error) => e instanceof TunnelError && /SHA-256 .* does not match .* deleted/.test(e.message),
    );
    assert.deepEqual(leftovers(dir), []);
  });

  it('a 404 says what answered and what to do', async () => {
    const dir = storage();
    await assert.rejects(downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/missing`, sha256 }), /answered 404\. Install it yourself/);
    assert.deepEqual(leftovers(dir), []);
  });

  it('cancelling a download that hangs leaves nothing behind', async () => {
    const dir = storage();
    const abort = new AbortController();
    const pending = downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/stall`, sha256, signal: abort.signal, onProgress: () => abort.abort() });
    await assert.rejects(pending, /Download cancelled/);
    assert.deepEqual(leftovers(dir), []);
  });

  it('a file whose SHA-256 is not the pinned one is refused before it is run, and deleted', async () => {
    const dir = storage();
    const tampered = createHash('sha256').update('the real release').digest('hex');
    await assert.rejects(downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/releases`, sha256: tampered }), /is not Cloudflare's cloudflared .*does not match the pinned .*deleted/);
    assert.deepEqual(leftovers(dir), []);
  });

  it('a file that reports another version than the pinned one is refused', async () => {
    const dir = storage();
    await assert.rejects(
      downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/releases`, sha256, version: '2024.1.0' }),
      new RegExp(`reports version ${CLOUDFLARED_VERSION.replace(/\./g, "\\.")}, not 2024\\.1\\.0`),
    );
    assert.deepEqual(leftovers(dir), []);
  });

  it('an http:// mirror is refused (loopback aside) before any request, and the source is named for the consent dialog', async () => {
    const before = server.requests.length;
    assert.throws(() => cloudflaredDownloadUrl('http://mirror.example/cloudflared'), /over https only \(not from http:\/\/mirror\.example\)/);
    await assert.rejects(downloadCloudflared({ storageDir: storage(), baseUrl: 'http://mirror.example/cloudflared', sha256: '0'.repeat(64) }), /over https only/);
    assert.equal(cloudflaredDownloadUrl('https://mirror.example/cf/'), `https://mirror.example/cf/${cloudflaredAsset()}`);
    assert.equal(cloudflaredDownloadUrl(), `${CLOUDFLARED_RELEASES}/${cloudflaredAsset()}`);
    assert.match(CLOUDFLARED_RELEASES, /^https:\/\/github\.com\/cloudflare\/cloudflared\/releases\/download\/\d{4}\.\d+\.\d+$/);
    assert.equal(server.requests.length, before);
  });

  it('every platform it downloads for has a pinned SHA-256, and a file that does not match it is deleted, never run', async () => {
    for (const [platform, arch] of [['linux', 'x64'], ['linux', 'arm64'], ['win32', 'x64'], ['darwin', 'x64'], ['darwin', 'arm64']]) {
      assert.match(CLOUDFLARED_SHA256[cloudflaredAsset(platform, arch)!] ?? '', /^[0-9a-f]{64}$/, `${platform}/${arch}`);
    }
    for (const [platform, arch] of [['linux', 'arm'], ['linux', 'ia32'], ['win32', 'ia32']]) {
      assert.equal(CLOUDFLARED_SHA256[cloudflaredAsset(platform, arch)!], undefined, `${platform}/${arch}: no pinned digest, never downloaded`);
    }
    // The test server's file is a stand-in, not Cloudflare's build: the pinned digest refuses it.
    const saved = process.env.AOAI_WORKBENCH_CLOUDFLARED_SHA256;
    delete process.env.AOAI_WORKBENCH_CLOUDFLARED_SHA256;
    const dir = storage();
    try {
      await assert.rejects(downloadCloudflared({ storageDir: dir, baseUrl: `${server.url}/releases` }), /is not Cloudflare's cloudflared .*does not match the pinned/);
      assert.deepEqual(leftovers(dir), [], 'nothing kept');
    } finally {
      if (saved !== undefined) process.env.AOAI_WORKBENCH_CLOUDFLARED_SHA256 = saved;
    }
  });
});

describe('tunnel CLI processes', function () {
  this.timeout(60_000);
  const node = process.execPath;

  it('a CLI that exits before giving a URL is explained with its last output', async () => {
    const script = 'console.error("ERR failed to request quick Tunnel: 429 Too Many Requests"); process.exit(1)';
    await assert.rejects(
      runTunnelProcess({ command: node, args: ['-e', script], findUrl: () => undefined }),
      /exited \(1\) before it gave a public URL\. Its output: ERR failed to request quick Tunnel: 429/,
    );
  });

  it('a CLI that never gives a URL is stopped at the deadline', async () => {
    let pid = 0;
    const script = 'console.log(process.pid); setTimeout(() => {}, 60_000)';
    await assert.rejects(
      runTunnelProcess({ command: node, args: ['-e', script], findUrl: (out) => ((pid = Number(out.trim()) || pid), undefined), timeoutMs: 1_000 }),
      /gave no public URL within 1 s/,
    );
    assert.ok(pid > 0);
    await eventually(() => !processAlive(pid), undefined, `the tunnel process ${pid} to end (no orphan left)`);
  });

  it('a CLI that ignores SIGTERM is killed, and cancelling a start stops the process', async () => {
    const script = 'process.on("SIGTERM", () => {}); console.log("url=https://x.example " + process.pid); setTimeout(() => {}, 60_000)';
    let pid = 0;
    const tunnel = await runTunnelProcess({ command: node, args: ['-e', script], findUrl: (out) => /url=(\S+) (\d+)/.exec(out)?.slice(1).map((v, i) => (i ? ((pid = Number(v)), '') : v))[0] });
    assert.equal(tunnel.url, 'https://x.example');
    await tunnel.stop();
    assert.ok(!processAlive(pid), 'killed after SIGTERM was ignored');

    const abort = new AbortController();
    const starting = runTunnelProcess({
      command: node,
      args: ['-e', 'console.log(process.pid); setTimeout(() => {}, 60_000)'],
      findUrl: (out) => ((pid = Number(out.trim()) || pid), undefined),
      signal: abort.signal,
    });
    while (!pid || !processAlive(pid)) await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await assert.rejects(starting, /Cancelled/);
    await eventually(() => !processAlive(pid), undefined, `the tunnel process ${pid} to end (no orphan after cancelling)`);
  });
});
