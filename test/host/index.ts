/**
 * The test entry VS Code loads in the extension host (`extensionTestsPath`): the same module
 * for code-server here and for `@vscode/test-electron` where VS Code can be downloaded.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

const RESTRICTED_MODE_TESTS = 'restrictedMode.test.js';

export function run(): Promise<void> {
  const grep = process.env.AOAI_HOST_GREP;
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: 'spec', ...(grep ? { grep } : {}) });
  // The Restricted Mode tests run alone, in the runner's untrusted code-server; the others never there.
  const restricted = process.env.AOAI_HOST_RESTRICTED === '1';
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && (f === RESTRICTED_MODE_TESTS) === restricted);
  for (const f of files.sort()) mocha.addFile(join(__dirname, f));
  return new Promise((resolve, reject) => {
    const times: Array<{ title: string; ms: number }> = [];
    const runner = mocha.run((failures) => {
      // The outer runner reads this line and this file for its summary.
      console.log(`HOST-RESULT passed=${runner.stats?.passes ?? 0} failed=${failures}`);
      const artifacts = process.env.AOAI_TEST_ARTIFACTS;
      if (artifacts) writeFileSync(join(artifacts, `host-times${restricted ? '-restricted' : ''}.json`), JSON.stringify(times));
      if (failures > 0) reject(new Error(`${failures} host test(s) failed.`));
      else resolve();
    });
    runner.on('test end', (t) => {
      if (typeof t.duration === 'number') times.push({ title: t.fullTitle(), ms: t.duration });
    });
  });
}
