import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { realGit } from '../support/realGit';
import { envFileWarnings } from '../../src/webhooks/endpoints/dotenvFile';
import { findGitOnPath, GIT_NOT_ALLOWED } from '../../src/webhooks/endpoints/gitExecutable';

const windows = process.platform === 'win32';

/** A repository's own `git`: writes a marker beside itself when anything starts it. */
const FAKE = '#!/bin/sh\necho ran >> "$(dirname "$0")/ran.marker"\nexit 0\n';
const FAKE_CMD = '@echo ran >> "%~dp0ran.marker"\r\n';

describe('the git a .env check runs', () => {
  let dir: string;
  let repo: string;
  let env: string;
  const savedPath = process.env.PATH;

  beforeEach(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aoai-git-')));
    repo = path.join(dir, 'repo');
    await fs.mkdir(repo);
    env = path.join(repo, '.env');
    await fs.writeFile(env, 'A=1\n');
    for (const name of ['git', 'git.exe', 'git.cmd', 'git.bat']) {
      await fs.writeFile(path.join(repo, name), name.endsWith('.cmd') || name.endsWith('.bat') ? FAKE_CMD : FAKE, { mode: 0o755 });
    }
  });
  afterEach(async () => {
    process.env.PATH = savedPath;
    await fs.rm(dir, { recursive: true, force: true });
  });

  const ranFake = () => existsSync(path.join(repo, 'ran.marker'));

  it('resolves to an absolute PATH entry, never to the git beside the .env through ".", an empty or a relative entry', async () => {
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin);
    await fs.writeFile(path.join(bin, 'git'), FAKE, { mode: 0o755 });
    const relative = path.relative(process.cwd(), repo);
    const posixPath = ['', '.', './', relative, 'repo', bin].join(':');
    assert.equal(await findGitOnPath({ platform: 'linux', env: { PATH: posixPath } }), path.join(bin, 'git'));
    assert.equal(await findGitOnPath({ platform: 'linux', env: { PATH: ['', '.', relative, 'repo'].join(':') } }), undefined, 'only relative entries: no git');
    assert.equal(await findGitOnPath({ platform: 'linux', env: {} }), undefined, 'no PATH: no git');
    // Windows: "Path" in any case, quoted entries, and a rooted "\repo" that depends on the current drive.
    const winPath = ['', '.', '.\\', relative, 'repo', '"repo"', '\\repo', repo.replace(/\//g, '\\')].join(';');
    assert.equal(await findGitOnPath({ platform: 'win32', env: { Path: winPath } }), windows ? path.join(repo, 'git.exe') : undefined);
    assert.equal(await findGitOnPath({ platform: 'win32', env: { Path: ['', '.', 'repo', '\\repo'].join(';') } }), undefined);
    if (windows) {
      await fs.writeFile(path.join(bin, 'git.cmd'), FAKE_CMD);
      assert.equal(await findGitOnPath({ env: { Path: bin } }), undefined, 'a git.cmd is not taken (it needs a shell)');
    }
    assert.equal(ranFake(), false);
  });

  it('the check in the .env\'s folder never starts the git beside it, even with "." and an empty entry first on PATH', async function () {
    if (!realGit) this.skip();
    execFileSync('git', ['init', '-q'], { cwd: repo, stdio: 'ignore' });
    process.env.PATH = windows ? `.;;${savedPath}` : `:.:${savedPath}`;
    // Not ignored: the real git says so (the fake would have exited 0, "ignored").
    assert.deepEqual(await envFileWarnings(env, [repo]), ['.env is not ignored by git: the secret could be committed. Add .env to .gitignore.']);
    await fs.writeFile(path.join(repo, '.gitignore'), '.env\n');
    assert.deepEqual(await envFileWarnings(env, [repo]), []);
    assert.equal(ranFake(), false, "the repository's git wrote its marker: it ran");
  });

  it('a bare name given as the git to use is looked up on PATH (absolute entries), not in the folder', async function () {
    if (!realGit) this.skip();
    execFileSync('git', ['init', '-q'], { cwd: repo, stdio: 'ignore' });
    process.env.PATH = windows ? `.;${savedPath}` : `.:${savedPath}`;
    assert.equal((await envFileWarnings(env, [repo], 'git')).length, 1, 'the real git answered: not ignored');
    assert.equal((await envFileWarnings(env, [repo], (await findGitOnPath())!)).length, 1, 'an absolute path is run as given');
    assert.equal(ranFake(), false);
  });

  it('an untrusted folder runs nothing: the warning says the .env could not be checked', async () => {
    process.env.PATH = windows ? `.;${savedPath}` : `:.:${savedPath}`;
    await fs.mkdir(path.join(repo, '.git'));
    const warnings = await envFileWarnings(env, [repo], GIT_NOT_ALLOWED);
    assert.deepEqual(warnings, ['Could not check whether git ignores .env: this folder is not trusted, so git was not run. Make sure .env is in .gitignore.']);
    assert.equal(ranFake(), false);
    const outside = await envFileWarnings(env, [path.join(dir, 'elsewhere')], GIT_NOT_ALLOWED);
    assert.equal(outside.length, 2, 'outside the workspace is still said');
  });
});
