/**
 * cloudflared is on neither npm nor the usual package managers of every platform, so when it is
 * not on PATH the extension can fetch Cloudflare's release build into its own storage, only after
 * the user agreed. The file is checked by running `cloudflared --version` before it is kept.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { interceptors, request, type Dispatcher } from 'undici';
import { ProxyRouter, type ProxySettings } from '../service/proxy';
import { TunnelError } from './tunnel';

/** Cloudflare's own release assets ("latest" redirects to the newest version). */
export const CLOUDFLARED_RELEASES = 'https://github.com/cloudflare/cloudflared/releases/latest/download';

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
  /** Where the release assets are (a mirror, or a test server). */
  baseUrl?: string;
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

function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => (err ? reject(err) : resolve(`${stdout}${stderr}`)));
  });
}

/** Downloads cloudflared, checks that it runs, and returns where it is. Nothing is left behind on failure. */
export async function downloadCloudflared(options: DownloadOptions): Promise<Downloaded> {
  const asset = cloudflaredAsset();
  if (!asset) throw new TunnelError(`Cloudflare publishes no cloudflared build for ${process.platform}/${process.arch}. Install it yourself and put it on PATH, or pick another tunnel.`);
  const url = `${(options.baseUrl ?? CLOUDFLARED_RELEASES).replace(/\/+$/, '')}/${asset}`;
  const target = downloadedCloudflaredPath(options.storageDir);
  const dir = join(options.storageDir, 'cloudflared');
  const partial = join(dir, `${asset}.partial`);
  // Checked under another name before it replaces the one in use; Windows runs only .exe names.
  const staged = join(dir, process.platform === 'win32' ? 'cloudflared-new.exe' : 'cloudflared-new');
  await mkdir(dir, { recursive: true });
  // Release links redirect to another host, which may need the proxy or not: routed per origin.
  const router = new ProxyRouter(options.proxy);
  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, { signal: options.signal, dispatcher: router.compose(interceptors.redirect({ maxRedirections: 5 })) });
    } catch (err) {
      if (options.signal?.aborted) throw new TunnelError('Download cancelled.');
      throw new TunnelError(`Could not download cloudflared from ${new URL(url).host}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}. Check your connection or proxy, or install cloudflared yourself.`);
    }
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => {});
      throw new TunnelError(`Could not download cloudflared: ${url} answered ${res.statusCode}. Install it yourself from Cloudflare, or pick another tunnel.`);
    }
    const length = Number(res.headers['content-length']);
    const total = Number.isFinite(length) && length > 0 ? length : undefined;
    if (total && total > MAX_BYTES) throw new TunnelError(`The file at ${url} is ${total} bytes, too large to be cloudflared.`);
    const hash = createHash('sha256');
    let received = 0;
    try {
      await pipeline(
        res.body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            received += chunk.length;
            if (received > MAX_BYTES) throw new TunnelError(`The download from ${url} is over ${MAX_BYTES} bytes: not cloudflared.`);
            hash.update(chunk);
            options.onProgress?.(received, total);
            yield chunk;
          }
        },
        createWriteStream(partial),
      );
    } catch (err) {
      if (options.signal?.aborted) throw new TunnelError('Download cancelled.');
      throw err instanceof TunnelError ? err : new TunnelError(`The cloudflared download broke off after ${received} bytes: ${(err as Error).message}. Try again.`);
    }
    if (total && received !== total) throw new TunnelError(`The cloudflared download ended after ${received} of ${total} bytes. Try again.`);
    if (asset.endsWith('.tgz')) {
      // macOS builds come as a tarball holding the one binary; tar is part of the system.
      const unpacked = join(dir, 'unpacked');
      await mkdir(unpacked, { recursive: true });
      try {
        await run('tar', ['-xzf', partial, '-C', unpacked], 60_000);
        await rename(join(unpacked, 'cloudflared'), staged);
      } catch (err) {
        throw new TunnelError(`Could not unpack the cloudflared archive from ${url}: ${(err as Error).message.split('\n')[0]}.`);
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
      if (!m) throw new Error(printed.trim().slice(0, 200) || 'no output');
      version = m[1];
    } catch (err) {
      throw new TunnelError(`The file downloaded from ${url} is not a working cloudflared (${(err as Error).message.split('\n')[0]}). It was deleted. Install cloudflared yourself, or pick another tunnel.`);
    }
    await rename(staged, target);
    return { path: target, version, sha256: hash.digest('hex'), bytes: received };
  } finally {
    await rm(partial, { force: true });
    await rm(staged, { force: true });
    void router.destroy();
  }
}
