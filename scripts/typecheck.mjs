// Type checks the four programs: the host code and the core (no DOM), the pages (DOM, no Node),
// the tests and benchmarks, the UI journeys (Node, and DOM for their page functions). The
// compiler is TypeScript 7 ("typescript-native"); the "typescript" package stays at 5.9, whose
// API typescript-eslint's parser loads.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')), 'bin', 'tsc');
let failed = false;
for (const project of ['.', 'src/webview', 'test', 'test/ui']) {
  const r = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);
