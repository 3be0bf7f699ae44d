/**
 * cloudflared is on neither npm nor the usual package managers of every platform, so when it is
 * not on PATH the extension can fetch Cloudflare's release build into its own storage, only after
 * the user agreed. A pinned release only: the file must match that release's SHA-256 and answer
 * `cloudflared --version` with its version before it is kept, and it comes over https.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import * as l10n from '@vscode/l10n';
import { isLoopbackHost } from '../service/connection';
import { transportFor, type ProxySettings } from '../service/proxy';
import type { Transport, TransportResponse } from '../service/transport';
import { TunnelError } from './tunnel';

/** The setting that names another place to download from (a mirror). */
const DOWNLOAD_URL_SETTING = 'aoaiWorkbench.tunnel.cloudflaredDownloadUrl';

/** The cloudflared release the extension downloads; update it with the table below. */
export const CLOUDFLARED_VERSION = '2026.6.1';

/** Cloudflare's own release assets of that version. */
export const CLOUDFLARED_RELEASES = `https://github.com/cloudflare/cloudflared/releases/download/${CLOUDFLARED_VERSION}`;

/**
 * SHA-256 of each release asset of CLOUDFLARED_VERSION. Cloudflare publishes no checksum file
 * for every asset; these are the digests of the official assets, the same in every independent
 * pin of this release we could read. An asset without an entry is never downloaded (a 32-bit or
 * ARMv7 machine is asked to install cloudflared itself).
 */
export const CLOUDFLARED_SHA256: Readonly<Record<string, string>> = {
  'cloudflared-linux-amd64': '5861a10a438fe8ddcfebb3b830f83966cbf193edafce0fe2eeb198fbae1f7a22',
  'cloudflared-linux-arm64': '59816ce9b16db71f5bc2a86d59b3632a96c8c3ee934bde2bc8641ee83a6070eb',
  'cloudflared-windows-amd64.exe': '5253e66f1f493c4e13539749f1aa86fd0c61e3072900fec29a44ba046a6d97e2',
  'cloudflared-darwin-amd64.tgz': 'd7a66b525fe76820da6e5406611b61e48b40de682368ac00454d9158f085be4b',
  'cloudflared-darwin-arm64.tgz': 'f6d4c439c6c782b83264951d327989ce5e23373acc5942b872411601fedb020d',
};

/** Above this the download is not a cloudflared build (they are ~40 MB). */
const MAX_BYTES = 200 * 1024 * 1024;

/** The release asset for a platform, or undefined where Cloudflare publishes none. */
export function cloudflaredAsset(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const linux: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386' };
  if (platform === 'linux' && linux[arch]) return `cloudflared-linux-${linux[arch]}`;
  if (platform === 'win32' && (arch === 'x64' || arch === 'arm64')) return 'cloudflared-windows-amd64.exe';
  if (platform === 'win32' && arch === 'ia32') return 'cloudflared-windows-386.exe';
  if (platform === 'darwin' && (arch === 'x64' || arch === 'arm64')) return `cloudflared-darwin-${arch === 'x64' ? 'amd64' : 'arm64'}.tgz`;
  return undefined;
}

/** Where a downloaded cloudflared lives inside the extension's storage folder. */
export function downloadedCloudflaredPath(storageDir: string): string {
  return join(storageDir, 'cloudflared', process.platform === 'win32' ? 'cloudflared.exe' : 'cloudflared');
}

export function hasDownloadedCloudflared(storageDir: string): boolean {
  return existsSync(downloadedCloudflaredPath(storageDir));
}

export interface DownloadOptions {
  storageDir: string;
  /** Where the release assets are (a mirror, or a test server): https, or http on loopback only. */
  baseUrl?: string;
  /**
   * The SHA-256 the file must have. Default: AOAI_WORKBENCH_CLOUDFLARED_SHA256 from the
   * environment (a mirror of your own build, tests), else the pinned one for the platform's asset.
   */
  sha256?: string;
  /** The version it must report (default: CLOUDFLARED_VERSION). */
  version?: string;
  signal?: AbortSignal;
  /** Proxy and certificate settings (VS Code's http.*); HTTPS_PROXY / NO_PROXY apply too. */
  proxy?: ProxySettings;
  /** Bytes so far and the total when the server said it. */
  onProgress?: (received: number, total: number | undefined) => void;
}

export interface Downloaded {
  path: string;
  version: string;
  sha256: string;
  bytes: number;
}

async function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(file, args, { timeout: timeoutMs, windowsHide: true });
  return `${stdout}${stderr}`;
}

/** https, or http to this machine only: anything else could be swapped on the way. */
function checkTransport(url: string): void {
  const u = new URL(url);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackHost(u.hostname))) {
    throw new TunnelError(
      l10n.t('cloudflared is downloaded over https only (not from {0}). Fix "{1}", or install cloudflared yourself.', `${u.protocol}//${u.host}`, DOWNLOAD_URL_SETTING),
    );
  }
}

/** The address the file would be downloaded from (what the consent dialog names); throws when it is not acceptable. */
export function cloudflaredDownloadUrl(baseUrl?: string): string {
  const asset = cloudflaredAsset();
  if (!asset) {
    const platform = `${process.platform}/${process.arch}`;
    throw new TunnelError(l10n.t('Cloudflare publishes no cloudflared build for {0}. Install it yourself and put it on PATH, or pick another tunnel.', platform));
  }
  let url: string;
  try {
    url = new URL(`${(baseUrl || CLOUDFLARED_RELEASES).replace(/\/+$/, '')}/${asset}`).href;
  } catch {
    throw new TunnelError(l10n.t('"{0}" is not a URL. Fix "{1}", or install cloudflared yourself.', String(baseUrl), DOWNLOAD_URL_SETTING));
  }
  checkTransport(url);
  return url;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GET that follows up to 5 redirects, each checked: a redirect may not leave https either. */
async function getFollowingRedirects(url: string, transport: Transport, signal?: AbortSignal): Promise<TransportResponse> {
  for (let hop = 0, at = url; ; hop++) {
    const res = await transport.request(at, { signal });
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode) || typeof location !== 'string' || hop === 5) return res;
    await res.body.dump().catch(() => {});
    at = new URL(location, at).href;
    checkTransport(at);
  }
}

/** Downloads cloudflared, checks its hash and that it runs, and returns where it is. Nothing is left behind on failure. */
export async function downloadCloudflared(options: DownloadOptions): Promise<Downloaded> {
  const url = cloudflaredDownloadUrl(options.baseUrl);
  const asset = cloudflaredAsset()!;
  const expected = (options.sha256 ?? process.env.AOAI_WORKBENCH_CLOUDFLARED_SHA256 ?? CLOUDFLARED_SHA256[asset] ?? '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(expected)) {
    throw new TunnelError(
      l10n.t(
        'This version of the extension has no checksum for {0} {1}, so it does not download it. Install cloudflared yourself and put it on PATH, or pick another tunnel.',
        asset,
        CLOUDFLARED_VERSION,
      ),
    );
  }
  const target = downloadedCloudflaredPath(options.storageDir);
  const dir = join(options.storageDir, 'cloudflared');
  const partial = join(dir, `${asset}.partial`);
  // Checked under another name before it replaces the one in use; Windows runs only .exe names.
  const staged = join(dir, process.platform === 'win32' ? 'cloudflared-new.exe' : 'cloudflared-new');
  await mkdir(dir, { recursive: true });
  // Release links redirect to another host, which may need the proxy or not: decided per request.
  const router = transportFor(options.proxy);
  try {
    let res: TransportResponse;
    try {
      res = await getFollowingRedirects(url, router, options.signal);
    } catch (err) {
      if (options.signal?.aborted) throw new TunnelError(l10n.t('Download cancelled.'));
      if (err instanceof TunnelError) throw err;
      throw new TunnelError(
        l10n.t(
          'Could not download cloudflared from {0}: {1}. Check your connection or proxy, or install cloudflared yourself.',
          new URL(url).host,
          (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message,
        ),
      );
    }
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => {});
      throw new TunnelError(l10n.t('Could not download cloudflared: {0} answered {1}. Install it yourself from Cloudflare, or pick another tunnel.', url, res.statusCode));
    }
    const length = Number(res.headers['content-length']);
    const total = Number.isFinite(length) && length > 0 ? length : undefined;
    if (total && total > MAX_BYTES) throw new TunnelError(l10n.t('The file at {0} is {1} bytes, too large to be cloudflared.', url, total));
    const hash = createHash('sha256');
    let received = 0;
    try {
      await pipeline(
        res.body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            received += chunk.length;
            if (received > MAX_BYTES) throw new TunnelError(l10n.t('The download from {0} is over {1} bytes: not cloudflared.', url, MAX_BYTES));
            hash.update(chunk);
            options.onProgress?.(received, total);
            yield chunk;
          }
        },
        createWriteStream(partial),
      );
    } catch (err) {
      if (options.signal?.aborted) throw new TunnelError(l10n.t('Download cancelled.'));
      throw err instanceof TunnelError ? err : new TunnelError(l10n.t('The cloudflared download broke off after {0} bytes: {1}. Try again.', received, (err as Error).message));
    }
    if (total && received !== total) throw new TunnelError(l10n.t('The cloudflared download ended after {0} of {1} bytes. Try again.', received, total));
    const sha256 = hash.digest('hex');
    if (sha256 !== expected) {
      throw new TunnelError(
        l10n.t(
          "The file from {0} is not Cloudflare's cloudflared {1}: its SHA-256 {2} does not match the pinned {3}. It was deleted. Install cloudflared yourself, or pick another tunnel.",
          url,
          CLOUDFLARED_VERSION,
          sha256,
          expected,
        ),
      );
    }
    if (asset.endsWith('.tgz')) {
      // macOS builds come as a tarball holding the one binary; tar is part of the system.
      const unpacked = join(dir, 'unpacked');
      await mkdir(unpacked, { recursive: true });
      try {
        await run('tar', ['-xzf', partial, '-C', unpacked], 60_000);
        await rename(join(unpacked, 'cloudflared'), staged);
      } catch (err) {
        throw new TunnelError(l10n.t('Could not unpack the cloudflared archive from {0}: {1}.', url, (err as Error).message.split('\n')[0]));
      } finally {
        await rm(unpacked, { recursive: true, force: true });
      }
    } else {
      await rename(partial, staged);
    }
    await chmod(staged, 0o755);
    let version: string;
    try {
      const printed = await run(staged, ['--version'], 15_000);
      const m = /cloudflared version (\S+)/.exec(printed);
      if (!m) throw new Error(printed.trim().slice(0, 200) || l10n.t('no output'));
      version = m[1];
      if (version !== (options.version ?? CLOUDFLARED_VERSION)) throw new Error(l10n.t('it reports version {0}, not {1}', version, options.version ?? CLOUDFLARED_VERSION));
    } catch (err) {
      throw new TunnelError(
        l10n.t(
          'The file downloaded from {0} is not a working cloudflared ({1}). It was deleted. Install cloudflared yourself, or pick another tunnel.',
          url,
          (err as Error).message.split('\n')[0],
        ),
      );
    }
    await rename(staged, target);
    return { path: target, version, sha256, bytes: received };
  } finally {
    await rm(partial, { force: true });
    await rm(staged, { force: true });
    void router.close();
  }
}
