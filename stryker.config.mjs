// Mutation testing of the core (`npm run mutate`): which lines could break without any plain-Node
// test noticing. Incremental: a re-run tests only mutants whose code or tests changed.
import { fileURLToPath } from 'node:url';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'mocha',
  testRunnerNodeArgs: ['--import', 'tsx'],
  mochaOptions: { spec: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'] },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  checkerNodeArgs: ['--import', fileURLToPath(new URL('./scripts/mutate/typescript5.mjs', import.meta.url))],
  mutate: [
    'src/webhooks/**/*.ts',
    'src/service/sse.ts',
    'src/service/http.ts',
    'src/webview/chat/markdown.ts',
    'src/chat/**/*.ts',
  ],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 85, low: 70, break: null },
  concurrency: 2,
  timeoutMS: 3_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
