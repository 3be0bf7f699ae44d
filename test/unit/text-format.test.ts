/**
 * Numbers, times and dates as the extension host writes them without ICU (src/text/format.ts):
 * the same digits as `toLocaleString('en')`, local 24-hour times and ISO dates, a stable order
 * for names; and, in a process of its own, none of it maps ICU's data the way one locale call does.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { clockTime, compareText, dateTime, groupDigits, isoDate } from '../../src/text/format';

describe('host formatting without ICU', () => {
  it('groups digits as toLocaleString("en") does, decimals and signs included', () => {
    const values = [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -1, -1234, 1234.5, 0.125, 1.0004, 2.9999, -0.0001, 123_456.789];
    for (const v of values) assert.equal(groupDigits(v), v.toLocaleString('en'), String(v));
    assert.equal(groupDigits(1_234_567), '1,234,567');
    assert.equal(groupDigits(Number.NaN), 'NaN');
  });

  it('writes local times and dates the same on every machine: 24-hour, ISO order', () => {
    const at = new Date(2026, 10, 4, 9, 5, 7).getTime();
    assert.equal(clockTime(at), '09:05:07');
    assert.equal(isoDate(at), '2026-11-04');
    assert.equal(dateTime(at), '2026-11-04 09:05:07');
    assert.equal(dateTime(at, false), '2026-11-04 09:05');
    assert.equal(clockTime(new Date(2026, 0, 1, 23, 59, 59).getTime()), '23:59:59');
  });

  it('orders names case-insensitively, then by case, so equal names keep one order', () => {
    const names = ['beta', 'Alpha', 'gamma', 'alpha', 'Beta', 'a10', 'a2'];
    assert.deepEqual([...names].sort(compareText), ['a10', 'a2', 'Alpha', 'alpha', 'Beta', 'beta', 'gamma']);
    assert.equal(compareText('Same', 'Same'), 0);
  });

  it('maps none of ICU\'s data, where one locale call maps megabytes of it', function () {
    this.timeout(30_000);
    // RssFile: pages of mapped files this process touched; ICU's data is one (in node, or libicudata).
    const probe = (calls: string) =>
      Number(
        execFileSync(process.execPath, ['--import', 'tsx', '-e', [
          `const f = require(${JSON.stringify(join(__dirname, '../../src/text/format.ts'))});`,
          "const rssFile = () => Number(/RssFile:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;",
          'const before = rssFile();',
          calls,
          'console.log(rssFile() - before);',
        ].join('\n')], { encoding: 'utf8' }),
      );
    const ours = probe("for (let i = 0; i < 100; i++) { f.groupDigits(i * 12345.6); f.dateTime(Date.now() - i * 9e6); ['b', 'A', 'é'].sort(f.compareText); }");
    const icu = probe("for (let i = 0; i < 100; i++) { (i * 12345.6).toLocaleString('en'); new Date().toLocaleString(); ['b', 'A', 'é'].sort((a, b) => a.localeCompare(b)); }");
    assert.ok(icu > 3e6, `the locale calls mapped ${(icu / 1e6).toFixed(1)} MB: this probe cannot tell ICU's pages apart here`);
    assert.ok(ours < 1e6, `the host's formatting mapped ${(ours / 1e6).toFixed(1)} MB of files (ICU's data?)`);
  });
});
