import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { timingSummary } from '../../scripts/test/timings.mjs';

describe('where npm test spent its time', () => {
  it('prints each stage in the order it ran with the total, then the ten slowest tests of every runner, slowest first', () => {
    const stages = [
      { name: 'typecheck', ms: 13_100 },
      { name: 'test:node', ms: 185_000 },
      { name: 'host tests', ms: 56_300, status: 'failed (exit 1)' },
    ];
    const tests = Array.from({ length: 12 }, (_, i) => ({ title: `test ${i}`, ms: i * 1000, where: i % 2 ? 'node' : 'host' }));
    tests.push({ title: 'a journey', ms: 95_000, where: 'UI' });
    const lines = timingSummary(stages, tests).split('\n');
    assert.deepEqual(lines.slice(1, 6), [
      'Where the time went:',
      '  typecheck         13.1 s',
      '  test:node     3 min 05 s',
      '  host tests        56.3 s  failed (exit 1)',
      '  total         4 min 14 s',
    ]);
    const slowest = lines.slice(lines.indexOf('The slowest 10 tests:') + 1);
    assert.equal(slowest.length, 10);
    assert.equal(slowest[0], '    1 min 35 s  [UI] a journey');
    assert.equal(slowest[1], '        11.0 s  [node] test 11');
    assert.equal(slowest[9], '         3.0 s  [node] test 3');
  });

  it("mocha's reporter writes each test's duration where --reporter-option out= says, and still prints the spec", function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'aoai-times-'));
    try {
      const spec = join(dir, 'a.test.cjs');
      writeFileSync(spec, "it('waits a little', (done) => { setTimeout(done, 60); });\nit('is quick', () => {});\n");
      const out = join(dir, 'times.json');
      const mocha = resolve('node_modules', 'mocha', 'bin', 'mocha.js');
      const printed = execFileSync(process.execPath, [mocha, '--no-config', '--reporter', resolve('scripts/test/timedSpec.cjs'), '--reporter-option', `out=${out}`, spec], { encoding: 'utf8' });
      assert.match(printed, /waits a little/);
      const times = JSON.parse(readFileSync(out, 'utf8')) as Array<{ title: string; ms: number }>;
      assert.deepEqual(times.map((t) => t.title), ['waits a little', 'is quick']);
      assert.ok(times[0].ms >= 50, `${times[0].ms} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
