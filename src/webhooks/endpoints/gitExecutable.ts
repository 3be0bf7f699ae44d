/**
 * Which `git` may run to ask whether a `.env` file is ignored. Given a bare name, Windows looks in
 * the working directory before PATH (and POSIX shells do for an empty or `.` PATH entry), so a
 * `git.exe` a repository ships beside its `.env` would run. Here the name is resolved to an
 * absolute file from the absolute PATH entries only, and nothing runs where the user has not
 * trusted the folder.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The caller (the VS Code layer) says the folder is not trusted: no git runs, nothing is checked. */
export const GIT_NOT_ALLOWED = 'not allowed to run';

/**
 * How git may be run: an absolute executable (VS Code's Git extension resolved it), undefined to
 * find it on PATH here, or GIT_NOT_ALLOWED.
 */
export type GitChoice = string | undefined | typeof GIT_NOT_ALLOWED;

export interface SearchPath {
  /** The environment variables (PATH, PATHEXT); process.env by default. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * The absolute path `git` resolves to on PATH, never in the working directory: relative entries
 * (`.`, `bin`, the empty entry) are skipped. On Windows only `git.exe` (a `.cmd` or `.bat` cannot
 * be started without a shell). undefined when there is none.
 */
export async function findGitOnPath(options: SearchPath = {}): Promise<string | undefined> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const p = platform === 'win32' ? path.win32 : path.posix;
  // Windows spells it Path; the lookup is case-insensitive there.
  const key = Object.keys(env).find((k) => (platform === 'win32' ? k.toUpperCase() === 'PATH' : k === 'PATH'));
  const entries = (key ? env[key] ?? '' : '').split(p.delimiter);
  const name = platform === 'win32' ? 'git.exe' : 'git';
  for (const raw of entries) {
    const dir = platform === 'win32' ? raw.replace(/^"(.*)"$/, '$1') : raw;
    if (!isAbsoluteDir(dir, platform)) continue;
    const candidate = p.join(dir, name);
    if (await isExecutableFile(candidate, platform)) return candidate;
  }
  return undefined;
}

/** Absolute, and on Windows with a drive or a UNC share (`\bin` depends on the current drive). */
function isAbsoluteDir(dir: string, platform: NodeJS.Platform): boolean {
  if (platform !== 'win32') return path.posix.isAbsolute(dir);
  return /^[a-zA-Z]:[\\/]/.test(dir) || /^[\\/]{2}[^\\/]/.test(dir);
}

async function isExecutableFile(file: string, platform: NodeJS.Platform): Promise<boolean> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return false;
  if (platform === 'win32') return true;
  return fs.access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The executable to run for `choice`, or undefined when none may or can run. */
export async function gitToRun(choice: GitChoice, search?: SearchPath): Promise<string | undefined> {
  if (choice === GIT_NOT_ALLOWED) return undefined;
  // Only an absolute path is taken as given: a bare name would be looked up in the cwd again.
  if (choice && path.isAbsolute(choice)) return choice;
  return findGitOnPath(search);
}
