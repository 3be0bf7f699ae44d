/**
 * Whether `.gitignore` files ignore a file, where git is not installed: the repository's
 * `.git/info/exclude` and the `.gitignore` files from its root (the folder holding `.git`) down to
 * the file's folder, read with the `ignore` package (git's whole pattern syntax). As in git, a
 * deeper file's pattern wins over a shallower one, and a file inside an ignored folder stays
 * ignored whatever a later `!` says. The user's global excludes file is not read.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

interface Layer {
  /** The folder the patterns are relative to. */
  dir: string;
  rules: Ignore;
}

/** true/false, or undefined when the file is in no repository. */
export async function gitignoreSays(file: string): Promise<boolean | undefined> {
  const target = path.resolve(file);
  const dirs: string[] = [];
  let root: string | undefined;
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (await fs.stat(path.join(dir, '.git')).catch(() => undefined)) {
      root = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  if (!root) return undefined;
  // git's own case rule follows the file system; these two are case-insensitive by default.
  const ignorecase = process.platform === 'win32' || process.platform === 'darwin';
  const read = (f: string) => fs.readFile(f, 'utf8').catch(() => '');
  const layers: Layer[] = [{ dir: root, rules: ignore({ ignorecase }).add(await read(path.join(root, '.git', 'info', 'exclude'))) }];
  for (const dir of dirs) layers.push({ dir, rules: ignore({ ignorecase }).add(await read(path.join(dir, '.gitignore'))) });
  // Each folder on the way down first: git does not look inside an ignored folder.
  const rel = path.relative(root, target).split(path.sep);
  for (let i = 1; i < rel.length; i++) {
    if (decide(layers, path.join(root, ...rel.slice(0, i)), true)) return true;
  }
  return decide(layers, target, false);
}

/** What the deepest layer with a say decides for `target` (a folder when `folder`). */
function decide(layers: readonly Layer[], target: string, folder: boolean): boolean {
  let ignored = false;
  for (const { dir, rules } of layers) {
    const rel = path.relative(dir, target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const verdict = rules.test(rel.split(path.sep).join('/') + (folder ? '/' : ''));
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}
