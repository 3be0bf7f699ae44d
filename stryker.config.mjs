// Mutation testing of the core (`npm run mutate`): which lines could break without any plain-Node
// test noticing. Incremental: a re-run tests only mutants whose code or tests changed.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'mocha',
  testRunnerNodeArgs: ['--import', 'tsx'],
  mochaOptions: { spec: ['test/unit/**/*.test.ts', 'test/loopback/**/*.test.ts', 'test/disk/**/*.test.ts', 'test/pages/**/*.test.ts'] },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: [
    // The listener (its bounds over node:http are receive/server.ts), verification, records, stores.
    'src/webhooks/**/*.ts',
    'src/storage/**/*.ts',
    'src/text/csv.ts',
    'src/service/sse.ts',
    'src/service/http.ts',
    // The transports under it: VS Code's fetch inside VS Code, undici's agents in plain Node.
    'src/service/transport.ts',
    'src/service/hostTransport.ts',
    'src/service/nodeTransport.ts',
    'src/service/proxyRules.ts',
    // The typed change event of the core's owners, and the deployment catalog that fires one.
    'src/service/emitter.ts',
    'src/service/deploymentCatalog.ts',
    // The Events view's redraw and log-line throttles (plain timers, no vscode import).
    'src/vscode/webhooks/burst.ts',
    'src/webview/chat/markdown.ts',
    // The chat page's protocol checks (its data model's are under src/chat/).
    'src/webview/chat/protocol.ts',
    // The fine-tuning job page's protocol checks.
    'src/webview/fineTuning/protocol.ts',
    'src/chat/**/*.ts',
    'src/usage/**/*.ts',
    'src/jobs/**/*.ts',
    'src/service/{files,batches,fineTuning,calls,armDeployments,jobTypes,jobs}.ts',
  ],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 85, low: 70, break: null },
  concurrency: 2,
  timeoutMS: 2_000,
  // Mutants in module-level constants need a fresh process per test run: slow, and rare here.
  ignoreStatic: true,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
