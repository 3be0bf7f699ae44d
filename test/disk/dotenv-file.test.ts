import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import dotenv from 'dotenv';
import { envFileWarnings, writeEnvVariable } from '../../src/webhooks/endpoints/dotenvFile';

const secret = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5';
const posix = process.platform !== 'win32';

async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aoai-env-')));
}

const modeOf = async (file: string): Promise<number> => (await fs.stat(file)).mode & 0o777;

describe('.env files on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('the app reads the new secret and every other variable as before; the old file is kept as .env.bak, owner only', async () => {
    const env = path.join(dir, '.env');
    const before = 'WEBHOOK_SECRET="old\r\nDATABASE_URL=postgres://db/app\r\nAPI_TOKEN="tok-123" # keep\r\n';
    await fs.writeFile(env, before, { mode: 0o640 });
    const result = await writeEnvVariable(env, 'WEBHOOK_SECRET', secret);
    assert.equal(result.replaced, true);
    const after = dotenv.parse(await fs.readFile(env));
    assert.deepEqual(after, { ...dotenv.parse(before), WEBHOOK_SECRET: secret });
    assert.equal(result.backup, `${env}.bak`);
    assert.equal(await fs.readFile(`${env}.bak`, 'utf8'), before, 'the backup is the file as it was');
    if (posix) {
      assert.equal(await modeOf(`${env}.bak`), 0o600);
      assert.equal(await modeOf(env), 0o640, 'an existing file keeps its permissions');
    }
    await writeEnvVariable(env, 'WEBHOOK_SECRET', 'whsec_second');
    assert.equal(dotenv.parse(await fs.readFile(`${env}.bak`)).WEBHOOK_SECRET, secret, 'each write keeps the file as it was just before');
    assert.deepEqual((await fs.readdir(dir)).sort(), ['.env', '.env.bak'], 'no temporary file is left');
  });

  it('a new file is created readable by its owner only, with no backup', async () => {
    const env = path.join(dir, '.env.local');
    const result = await writeEnvVariable(env, 'WEBHOOK_SECRET', secret);
    assert.deepEqual(result, { replaced: false, backup: undefined });
    assert.equal(dotenv.parse(await fs.readFile(env)).WEBHOOK_SECRET, secret);
    if (posix) assert.equal(await modeOf(env), 0o600);
  });

  it('a .env that is a link to another file is refused and the other file is untouched', async function () {
    if (!posix) this.skip();
    const gitconfig = path.join(dir, 'gitconfig');
    await fs.writeFile(gitconfig, '[user]\n\tname = me\n');
    const env = path.join(dir, '.env');
    await fs.symlink(gitconfig, env);
    await assert.rejects(writeEnvVariable(env, 'WEBHOOK_SECRET', secret), /\.env is a symbolic link, so nothing was written to it/);
    assert.equal(await fs.readFile(gitconfig, 'utf8'), '[user]\n\tname = me\n');
    assert.equal((await fs.lstat(env)).isSymbolicLink(), true);
  });

  it('a link named .env.bak is not written through either', async function () {
    if (!posix) this.skip();
    const other = path.join(dir, 'other');
    await fs.writeFile(other, 'precious\n');
    await fs.writeFile(path.join(dir, '.env'), 'A=1\n');
    await fs.symlink(other, path.join(dir, '.env.bak'));
    await assert.rejects(writeEnvVariable(path.join(dir, '.env'), 'S', secret), /\.env\.bak is not a regular file/);
    assert.equal(await fs.readFile(other, 'utf8'), 'precious\n');
    assert.equal(await fs.readFile(path.join(dir, '.env'), 'utf8'), 'A=1\n');
  });

  it('a folder or a named pipe is refused at once (no hang), a hard link\'s other name keeps its content', async function () {
    if (!posix) this.skip();
    await fs.mkdir(path.join(dir, 'folder.env'));
    await assert.rejects(writeEnvVariable(path.join(dir, 'folder.env'), 'S', secret), /folder\.env is a folder/);
    execFileSync('mkfifo', [path.join(dir, 'pipe.env')]);
    await assert.rejects(writeEnvVariable(path.join(dir, 'pipe.env'), 'S', secret), /pipe\.env is not a regular file/);
    const elsewhere = path.join(dir, 'elsewhere');
    await fs.writeFile(elsewhere, 'A=1\n');
    await fs.link(elsewhere, path.join(dir, '.env'));
    await writeEnvVariable(path.join(dir, '.env'), 'S', secret);
    assert.equal(await fs.readFile(elsewhere, 'utf8'), 'A=1\n');
    assert.equal(dotenv.parse(await fs.readFile(path.join(dir, '.env'))).S, secret);
  });

  describe('warnings before a secret is written', () => {
    const git = (cwd: string, ...args: string[]): void => {
      execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' });
    };

    it('git decides: an ignored .env is quiet, one git would commit gets a warning, outside a repository nothing is said about git', async () => {
      const env = path.join(dir, '.env');
      assert.deepEqual(await envFileWarnings(env, [dir]), [], 'no repository');
      git(dir, 'init', '-q');
      assert.deepEqual(await envFileWarnings(env, [dir]), [`.env is not ignored by git: the secret could be committed. Add .env to .gitignore.`]);
      await fs.writeFile(path.join(dir, '.gitignore'), '*.log\n.env*\n');
      assert.deepEqual(await envFileWarnings(env, [dir]), []);
    });

    it('outside every workspace folder: said, with where it is', async () => {
      const workspace = path.join(dir, 'app');
      await fs.mkdir(workspace);
      const env = path.join(dir, '.env');
      assert.match((await envFileWarnings(env, [workspace])).join('\n'), /\.env is outside the workspace \(.*\): make sure this is the file your app reads/);
      assert.deepEqual(await envFileWarnings(path.join(workspace, '.env'), [workspace]), []);
    });

    it('without git installed, the .gitignore files from the repository root down decide (a later ! brings the file back)', async () => {
      const noGit = path.join(dir, 'no-such-git');
      const sub = path.join(dir, 'service');
      await fs.mkdir(path.join(dir, '.git'), { recursive: true });
      await fs.mkdir(sub);
      const env = path.join(sub, '.env');
      assert.equal((await envFileWarnings(env, [dir], noGit)).length, 1, 'no .gitignore');
      await fs.writeFile(path.join(dir, '.gitignore'), '# secrets\n**/.env\n');
      assert.deepEqual(await envFileWarnings(env, [dir], noGit), []);
      await fs.writeFile(path.join(sub, '.gitignore'), '!.env\n');
      assert.equal((await envFileWarnings(env, [dir], noGit)).length, 1, 'brought back by the folder\'s own .gitignore');
      await fs.writeFile(path.join(sub, '.gitignore'), '/other/.env\n');
      assert.deepEqual(await envFileWarnings(env, [dir], noGit), []);
      await fs.writeFile(path.join(dir, '.gitignore'), '/.env\n');
      assert.equal((await envFileWarnings(env, [dir], noGit)).length, 1, 'a leading / anchors to the root: service/.env is not ignored');
    });
  });
});
