/**
 * Whether `.gitignore` files ignore a file, for machines without git: the files from the
 * repository's root (the folder holding `.git`) down to the file's folder, read in git's order
 * (a later pattern wins; `!` brings a file back). Enough of git's patterns for a `.env` file:
 * `*`, `?`, `**`, a leading or inner `/` anchoring to the `.gitignore`'s folder, a trailing `/`
 * for folders.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** true/false, or undefined when the file is in no repository. */
export async function gitignoreSays(file: string): Promise<boolean | undefined> {
  const dirs: string[] = [];
  let root: string | undefined;
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (await fs.stat(path.join(dir, '.git')).catch(() => undefined)) {
      root = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  if (!root) return undefined;
  let ignored = false;
  for (const dir of dirs) {
    const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8').catch(() => '');
    const rel = path.relative(dir, path.resolve(file)).split(path.sep).join('/');
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRule(line);
      if (rule && matches(rule, rel)) ignored = !rule.negated;
    }
  }
  return ignored;
}

interface Rule {
  negated: boolean;
  regex: RegExp;
}

function parseRule(line: string): Rule | undefined {
  let p = line.replace(/(?<!\\)\s+$/, '');
  if (p === '' || p.startsWith('#')) return undefined;
  const negated = p.startsWith('!');
  if (negated) p = p.slice(1);
  // A folder pattern also ignores the files inside it.
  const folder = p.endsWith('/');
  if (folder) p = p.slice(0, -1);
  const anchored = p.includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  let re = '';
  for (let i = 0; i < p.length; i++) {
    if (p.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (p.startsWith('**', i)) {
      re += '.*';
      i++;
    } else if (p[i] === '*') re += '[^/]*';
    else if (p[i] === '?') re += '[^/]';
    else if (p[i] === '\\' && i + 1 < p.length) re += escape(p[++i]);
    else re += escape(p[i]);
  }
  const body = folder ? `${re}/.+` : `${re}(?:/.+)?`;
  return { negated, regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) };
}

function escape(ch: string): string {
  return /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch;
}

function matches(rule: Rule, rel: string): boolean {
  return rule.regex.test(rel);
}
