import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { realGit } from '../support/realGit';
import { gitignoreSays } from '../../src/storage/gitignore';


/** What git itself says (exit 0: ignored, 1: not), where git is installed. */
function gitSays(root: string, file: string): boolean {
  try {
    execFileSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.ignorecase=false', 'check-ignore', '-q', '--', file], { cwd: root, stdio: 'ignore' });
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 1) return false;
    throw err;
  }
}

interface Case {
  title: string;
  /** Ignore files by path from the repository's root (.git/info/exclude too). */
  files: Record<string, string>;
  /** File → ignored? */
  expect: Record<string, boolean>;
}

const CASES: Case[] = [
  { title: 'negation: a later ! brings the file back, a deeper .gitignore wins', files: { '.gitignore': '.env*\n!.env.example\n', 'svc/.gitignore': '!.env\n' },
    expect: { '.env': true, '.env.example': false, '.env.local': true, 'svc/.env': false, 'svc/.env.local': true } },
  { title: 'directory-only: "config/" ignores what is inside the folder, not a file of that name',
    files: { '.gitignore': 'config/\n' }, expect: { 'config/.env': true, 'app/config/.env': true, 'config': false } },
  { title: 'a file inside an ignored folder stays ignored whatever a ! says', files: { '.gitignore': 'secrets/\n!secrets/.env\n', 'secrets/.gitignore': '!.env\n' },
    expect: { 'secrets/.env': true } },
  { title: '"**": leading, inner and trailing', files: { '.gitignore': '**/deploy/.env\napps/**/.env.prod\nvault/**\n' },
    expect: { 'deploy/.env': true, 'x/y/deploy/.env': true, 'apps/.env.prod': true, 'apps/a/b/.env.prod': true, 'other/.env.prod': false, 'vault/a/.env': true } },
  { title: 'escaped "#" and "!" are names; an unescaped "#" starts a comment', files: { '.gitignore': '\\#.env\n\\!important.env\n# .env\n' },
    expect: { '#.env': true, '!important.env': true, '.env': false } },
  { title: 'anchored: a leading or inner "/" is relative to the .gitignore\'s folder', files: { '.gitignore': '/.env\n', 'svc/.gitignore': '/local/.env\nsub/.env.test\n' },
    expect: { '.env': true, 'svc/.env': false, 'svc/local/.env': true, 'svc/x/local/.env': false, 'svc/sub/.env.test': true, 'svc/x/sub/.env.test': false } },
  { title: 'character classes, "?", trailing spaces and an escaped trailing space', files: { '.gitignore': '.env.[ps]rod?\n.env.dev   \n.env.x\\ \n' },
    expect: { '.env.prod1': true, '.env.srod2': true, '.env.trod1': false, '.env.dev': true, '.env.x ': true, '.env.x': false } },
  { title: '.git/info/exclude counts, below every .gitignore', files: { '.git/info/exclude': '.env\n', 'svc/.gitignore': '!.env\n' },
    expect: { '.env': true, 'svc/.env': false } },
];

describe('.gitignore reading where git is not installed', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aoai-ignore-')));
    if (realGit) execFileSync('git', ['init', '-q'], { cwd: root, stdio: 'ignore' });
    else await fs.mkdir(path.join(root, '.git', 'info'), { recursive: true });
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  for (const c of CASES) {
    it(`${c.title} (as git check-ignore says)`, async () => {
      for (const [file, text] of Object.entries(c.files)) {
        await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
        await fs.writeFile(path.join(root, file), text);
      }
      for (const [file, ignored] of Object.entries(c.expect)) {
        assert.equal(await gitignoreSays(path.join(root, file)), ignored, file);
        if (realGit) assert.equal(gitSays(root, file), ignored, `git itself on ${file}`);
      }
    });
  }

  it('outside a repository: no answer', async () => {
    await fs.rm(path.join(root, '.git'), { recursive: true });
    assert.equal(await gitignoreSays(path.join(root, '.env')), undefined);
  });
});
