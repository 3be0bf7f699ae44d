/** Removing the cloudflared that the extension downloaded (never one on PATH). */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { downloadedCloudflaredPath, hasDownloadedCloudflared } from './cloudflaredDownload';

/** Deletes the downloaded cloudflared and its folder; the path it removed, or undefined if there was none. */
export async function removeDownloadedCloudflared(storageDir: string): Promise<string | undefined> {
  if (!hasDownloadedCloudflared(storageDir)) return undefined;
  const path = downloadedCloudflaredPath(storageDir);
  await rm(dirname(path), { recursive: true, force: true });
  return path;
}
