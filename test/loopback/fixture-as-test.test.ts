import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { Webhook } from 'standardwebhooks';
import { fixtureOf } from '../../src/webhooks/fixtures/format';
import { runnersFor, testFolder, testOfFixture, usesTypeScript, type TestRunner } from '../../src/webhooks/fixtures/asTest';
import { startAnsweringApp, type Answer, type AnsweringApp } from '../support/answeringApp';

const root = resolve(import.meta.dirname, '../..');
const testSecret = `whsec_${Buffer.from('a secret for the generated tests only').toString('base64')}`;
const fixture = fixtureOf(
  'batch.completed',
  JSON.stringify({ object: 'event', id: 'evt_fixture_1', type: 'batch.completed', created_at: 1764370000, data: { id: 'batch_abc', note: 'naïve "quotes" \\ 🎉' } }),
  { 'content-type': 'application/json', 'user-agent': 'OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)' },
);

interface Run {
  code: number;
  output: string;
}

/** Runs a command to its end (bounded by `timeout`), with WEBHOOK_SECRET and WEBHOOK_URL left out of its environment. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const base = { ...process.env };
  delete base.WEBHOOK_SECRET;
  delete base.WEBHOOK_URL;
  delete base.NODE_OPTIONS;
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env: { ...base, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      done({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

const hasPytest = run('python3', ['-m', 'pytest', '--version'], root).then((r) => r.code === 0);

/** The app a user writes: Standard Webhooks' verify with the secret from its environment (here, the test secret). */
const sound = (body: string, headers: Record<string, unknown>): Answer => {
  try {
    new Webhook(testSecret).verify(body, headers as Record<string, string>);
    return { status: 204 };
  } catch {
    return { status: 401, body: 'invalid signature' };
  }
};

describe('Copy as Test: the generated tests run against apps on this machine', () => {
  let dir: string;
  const apps: AnsweringApp[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'as-test-'));
    // The user's project has standardwebhooks installed: ours stands in for its node_modules.
    await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  after(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    await rm(dir, { recursive: true, force: true });
  });
  const app = async (answer: Parameters<typeof startAnsweringApp>[0]) => {
    const a = await startAnsweringApp(answer);
    apps.push(a);
    return a;
  };
  /** Writes the test generated for `url` and runs it with its runner. */
  async function generateAndRun(runner: TestRunner, url: string, typescript: boolean, sub: string): Promise<Run> {
    const t = testOfFixture({ fixture, url, runner, typescript, testSecret, source: 'webhook-fixtures/batch.completed.json' });
    const folder = join(dir, sub);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
    await writeFile(join(folder, t.fileName), t.text);
    // The stand-in for PyPI's standardwebhooks (see its header) on PYTHONPATH: PyPI is out of reach here.
    const pythonPath = { PYTHONPATH: join(root, 'test/support/python') };
    if (runner === 'pytest') return run('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', t.fileName], folder, pythonPath);
    return run(process.execPath, [...(typescript ? ['--import', 'tsx'] : []), '--test', t.fileName], folder);
  }

  for (const typescript of [true, false]) {
    const lang = typescript ? 'TypeScript' : 'JavaScript';
    it(`node:test in ${lang}: passes against a verifying app, fails against one that refuses everything and one that accepts any signature`, async () => {
      const good = await app(sound);
      const passed = await generateAndRun('node', good.url, typescript, `node-${lang}-good`);
      assert.equal(passed.code, 0, passed.output);
      assert.match(passed.output, /# pass 2/);
      assert.equal(good.received.length, 2, 'one signed delivery, one with another secret');
      assert.equal(good.received[0]!.headers['user-agent'], 'OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)', "the fixture's headers go with it");
      assert.match(good.received[0]!.body, /"note":"naïve \\"quotes\\" \\\\ 🎉"/, 'the event as the fixture holds it');

      const refusing = await app([{ status: 401, body: 'no' }]);
      const failed = await generateAndRun('node', refusing.url, typescript, `node-${lang}-refusing`);
      assert.notEqual(failed.code, 0, failed.output);
      assert.match(failed.output, /# fail 1/);
      assert.match(failed.output, /401 no/, "the failure shows the app's answer");

      const lax = await app([{ status: 200, body: 'ok' }]);
      const lenient = await generateAndRun('node', lax.url, typescript, `node-${lang}-lax`);
      assert.notEqual(lenient.code, 0, lenient.output);
      assert.match(lenient.output, /not ok \d+ - the app refuses a batch completed delivery signed with another secret/);
    });
  }

  it('pytest: passes against a verifying app, fails against one that refuses everything', async function () {
    if (!(await hasPytest)) this.skip(); // python3 -m pytest is not installed here
    const good = await app(sound);
    const passed = await generateAndRun('pytest', good.url, false, 'py-good');
    assert.equal(passed.code, 0, passed.output);
    assert.match(passed.output, /2 passed/);
    assert.match(good.received[0]!.body, /"note":"naïve \\"quotes\\" \\\\ 🎉"/);
    const refusing = await app([{ status: 401, body: 'no' }]);
    const failed = await generateAndRun('pytest', refusing.url, false, 'py-refusing');
    assert.notEqual(failed.code, 0, failed.output);
    assert.match(failed.output, /1 failed, 1 passed/);
    assert.match(failed.output, /the app answered 401: no/);
  });

  it("the runner follows the project: vitest or jest from package.json, pytest from Python files, tests beside the project's", () => {
    assert.deepEqual(runnersFor({ packageJson: '{"devDependencies":{"vitest":"^3"}}', names: ['package.json'] }).slice(0, 2), ['vitest', 'node']);
    assert.deepEqual(runnersFor({ packageJson: '{"devDependencies":{"jest":"^29"}}', names: ['package.json'] })[0], 'jest');
    assert.deepEqual(runnersFor({ names: ['pyproject.toml', 'app.py'] })[0], 'pytest');
    assert.deepEqual(runnersFor({ names: ['requirements-dev.txt'] })[0], 'pytest');
    assert.deepEqual(runnersFor({ packageJson: '{}', names: ['package.json', 'tsconfig.json'] })[0], 'node');
    assert.equal(usesTypeScript({ packageJson: '{"devDependencies":{"typescript":"5"}}', names: [] }), true);
    assert.equal(usesTypeScript({ packageJson: '{}', names: ['package.json'] }), false);
    assert.equal(testFolder('node', ['src', 'test']), 'test');
    assert.equal(testFolder('pytest', ['test', 'tests']), 'tests');
    assert.equal(testFolder('node', ['src']), undefined);
    const vitest = testOfFixture({ fixture, url: 'http://localhost:3001/hooks/batch', runner: 'vitest', typescript: true, testSecret });
    assert.equal(vitest.fileName, 'batch.completed.webhook.test.ts');
    assert.match(vitest.text, /import \{ expect, test \} from 'vitest';/);
    assert.match(vitest.text, /import \{ Webhook \} from 'standardwebhooks';/);
    assert.match(vitest.text, /process\.env\.WEBHOOK_SECRET \?\? TEST_SECRET/);
    assert.match(vitest.text, /"http:\/\/localhost:3001\/hooks\/batch"/);
    // Vitest and Jest are not installed here: their tests are at least valid code, TypeScript and JavaScript.
    for (const runner of ['vitest', 'jest'] as const) {
      for (const typescript of [true, false]) {
        const t = testOfFixture({ fixture, url: 'http://localhost:3000/webhook', runner, typescript, testSecret });
        assert.doesNotThrow(() => transformSync(t.text, { loader: typescript ? 'ts' : 'js', format: runner === 'jest' && !typescript ? 'cjs' : 'esm' }), `${runner} ${t.fileName}`);
        assert.match(t.text, /toMatch\(\/\^2\\d\\d \/\)/);
      }
    }
    const py = testOfFixture({ fixture, url: 'http://localhost:8000/webhook', runner: 'pytest', testSecret });
    assert.equal(py.fileName, 'test_batch_completed_webhook.py');
    assert.match(py.text, /^from standardwebhooks import Webhook$/m);
  });
});
