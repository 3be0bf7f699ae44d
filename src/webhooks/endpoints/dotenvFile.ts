/**
 * Writes a signing secret into a `.env` file on disk, as safely as a secret deserves: the file a
 * repository names `.env` may be a link to something else (`~/.gitconfig`), a pipe or a folder, so
 * only a regular file is written, through a new file renamed over it (a hard link's other name is
 * left alone); a new file is readable by its owner only; the previous content is kept beside it in
 * `<file>.bak` (owner only) so a bad write can be undone; and the caller learns when the file could
 * end up in git or lies outside the workspace.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { decodeEnvFile, setEnvVariable } from './dotenv';
import { GIT_NOT_ALLOWED, gitToRun, type GitChoice } from './gitExecutable';
import { gitignoreSays } from '../../storage/gitignore';

export interface EnvFileWrite {
  replaced: boolean;
  /** Where the previous content was kept (absent when the file is new). */
  backup?: string;
}

const OWNER_ONLY = 0o600;

/** Reads the file (or '' when there is none), refusing anything but a regular file. */
async function readRegular(file: string): Promise<{ text: string; mode?: number }> {
  // Windows has no O_NOFOLLOW: look first there.
  if ((await fs.lstat(file).catch(() => undefined))?.isSymbolicLink()) throw refusal(file, 'link');
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a link is refused here, not followed, even if it appears after a check.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: '' };
    if (code === 'ELOOP' || code === 'EMLINK') throw refusal(file, 'link');
    throw new Error(l10n.t('Could not read {0}: {1}. Nothing was written.', path.basename(file), (err as Error).message));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refusal(file, stat.isDirectory() ? 'folder' : 'special');
    return { text: decodeEnvFile(await handle.readFile()), mode: stat.mode & 0o777 };
  } finally {
    await handle.close();
  }
}

function refusal(file: string, what: 'link' | 'folder' | 'special'): Error {
  const name = path.basename(file);
  const why = {
    link: l10n.t('{0} is a symbolic link, so nothing was written to it.', name),
    folder: l10n.t('{0} is a folder, so nothing was written to it.', name),
    special: l10n.t('{0} is not a regular file, so nothing was written to it.', name),
  }[what];
  return new Error(`${why} ${l10n.t('Pick a regular .env file, or copy the secret instead.')}`);
}

/** Writes `text` to a new file beside `file` and renames it over `file`. */
async function replaceFile(file: string, text: string, mode: number): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** Puts `name=value` into the .env file `file` (see the module comment), keeping a backup first. */
export async function writeEnvVariable(file: string, name: string, value: string): Promise<EnvFileWrite> {
  const { text, mode } = await readRegular(file);
  const update = setEnvVariable(text, name, value);
  let backup: string | undefined;
  if (mode !== undefined) {
    backup = `${file}.bak`;
    // The backup holds the old secret too: owner only, and never written through a link.
    const before = await fs.lstat(backup).catch(() => undefined);
    if (before && !before.isFile()) throw refusal(backup, 'special');
    await replaceFile(backup, text, OWNER_ONLY);
  }
  await replaceFile(file, update.text, mode ?? OWNER_ONLY);
  return { replaced: update.replaced, backup };
}

/**
 * What the user should hear before a secret goes into `file`: that git could commit it, that this
 * could not be checked (the folder is not trusted, so no git runs), or that it is outside every
 * workspace folder. `git check-ignore` decides when git is installed (the executable `git`
 * names, else the one on PATH: see gitExecutable.ts; with the repository's fsmonitor hook
 * switched off, as a repository's config must not run anything); without git, the repository's
 * ignore files (gitignore.ts).
 */
export async function envFileWarnings(file: string, workspaceFolders: readonly string[], git?: GitChoice): Promise<string[]> {
  const warnings: string[] = [];
  const name = path.basename(file);
  const real = await realDir(file);
  if (!workspaceFolders.some((folder) => isInside(real, folder))) {
    warnings.push(`${name} is outside the workspace (${path.dirname(file)}): make sure this is the file your app reads.`);
  }
  if (git === GIT_NOT_ALLOWED) {
    warnings.push(`Could not check whether git ignores ${name}: this folder is not trusted, so git was not run. Make sure ${name} is in .gitignore.`);
    return warnings;
  }
  const ignored = await gitIgnores(file, await gitToRun(git));
  if (ignored === false) warnings.push(`${name} is not ignored by git: the secret could be committed. Add ${name} to .gitignore.`);
  return warnings;
}

async function realDir(file: string): Promise<string> {
  const dir = await fs.realpath(path.dirname(file)).catch(() => path.dirname(file));
  return path.join(dir, path.basename(file));
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** true/false when it is known; undefined outside a repository. `git` is absolute, or undefined when there is none. */
async function gitIgnores(file: string, git: string | undefined): Promise<boolean | undefined> {
  if (!git) return gitignoreSays(file);
  const args = ['-c', 'core.fsmonitor=false', 'check-ignore', '-q', '--', path.basename(file)];
  const code = await new Promise<number | 'missing'>((resolve) => {
    // A loaded machine can take seconds to start a process: the bound is for a hung git only.
    execFile(git, args, { cwd: path.dirname(file), timeout: 30_000, windowsHide: true }, (err) => {
      // A number is git's exit status; a string (ENOENT) means git could not be started.
      if (!err) resolve(0);
      else if (typeof err.code === 'number') resolve(err.code);
      else resolve(err.code === 'ENOENT' ? 'missing' : 128);
    });
  });
  if (code === 0) return true;
  if (code === 1) return false;
  if (code === 'missing') return gitignoreSays(file);
  return undefined;
}
