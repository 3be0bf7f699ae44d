// Mocha's spec reporter, plus each test's duration written as JSON to the file named by
// `--reporter-option out=<file>`, for the summary `npm test` prints at its end (scripts/test.mjs).
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class TimedSpec extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = options?.reporterOption?.out ?? options?.reporterOptions?.out;
    const tests = [];
    runner.on('test end', (t) => {
      if (typeof t.duration === 'number') tests.push({ title: t.fullTitle(), ms: t.duration, state: t.state ?? 'unknown' });
    });
    runner.once('end', () => {
      if (out) writeFileSync(out, JSON.stringify(tests));
    });
  }
}

module.exports = TimedSpec;
