// The lint guards the floor plan: probe files that break each rule, laid out like the project in
// a temporary folder and linted through ESLint's API with the project's own configuration, fail
// it; the same imports in the right direction pass.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';

const root = resolve(__dirname, '..', '..');

/** Past each length limit by one character: a code line of 161 (max-len) and a string line of 201 (the hard limit). */
const LONG_LINES = `export const ${'a'.repeat(143)} = 1;\nexport const text = '${'x'.repeat(178)}';\n`;

/** `n` lines of code. */
const linesOfCode = (n: number) => Array.from({ length: n }, (_, i) => `export const a${i} = ${i};`).join('\n') + '\n';

/** The probe project: file → source. */
const PROBES: Record<string, string> = {
  'src/vscode/log.ts': 'export const logError = (s: string) => s;\n',
  'src/service/types.ts': 'export interface Usage { total: number }\n',
  'src/chat/engine.ts': "import type { Usage } from '../service/types';\nexport const run = (u: Usage) => u.total;\n",
  // Breaks a rule each.
  'src/auth/importsHost.ts': "import { logError } from '../vscode/log';\nexport const a = logError;\n",
  'src/webhooks/deep/importsHostFromAfar.ts': "import { logError } from '../../../src/vscode/log';\nexport const a = logError;\n",
  'src/storage/importsChat.ts': "import type { Shape } from '../chat/shapes';\nexport const a = (s: Shape) => s;\n",
  'src/chat/ping.ts': "import { pong } from './pong';\nexport const ping = () => pong;\n",
  'src/chat/pong.ts': "import { ping } from './ping';\nexport const pong = () => ping;\n",
  'src/webview/importsNode.ts': "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n",
  'src/webview/importsHostCode.ts': "import { run } from '../chat/engine';\nexport const a = run;\n",
  'src/chat/model.ts': "import { readFileSync } from 'fs';\nexport const a = readFileSync;\n",
  // The right direction: the VS Code layer uses the core; the page uses a shared type.
  'src/vscode/usesCore.ts': "import { run } from '../chat/engine';\nexport const a = run;\n",
  'src/webview/usesTypes.ts': "import type { Usage } from '../service/types';\nexport const a = (u: Usage) => u;\n",
  // ICU in the extension host (10 MB on first use); a page may use it.
  'src/vscode/localeCalls.ts': "export const a = (n: number, s: string) => [n.toLocaleString(), s.localeCompare('b'), new Intl.NumberFormat().format(n)];\n",
  'src/webview/localeCalls.ts': "export const a = (n: number, s: string) => [n.toLocaleString(), s.localeCompare('b'), new Intl.NumberFormat().format(n)];\n",
  // The floors, the cycles and the size, with type-only imports.
  'src/chat/shapes.ts': 'export interface Shape { n: number }\n',
  'src/auth/importsChatType.ts': "import type { Shape } from '../chat/shapes';\nexport const a = (s: Shape) => s.n;\n",
  'src/jobs/left.ts': "import type { Right } from './right';\nexport interface Left { r?: Right }\n",
  'src/jobs/right.ts': "import type { Left } from './left';\nexport interface Right { l?: Left }\n",
  'src/usage/usesChat.ts': "import type { Shape } from '../chat/shapes';\nexport type A = Shape;\n",
  'src/chat/usesUsage.ts': "import type { A } from '../usage/usesChat';\nexport type B = A;\n",
  'src/text/full.ts': linesOfCode(300),
  'src/text/tooLong.ts': linesOfCode(301),
  // Long lines where an exemption once turned both length rules off.
  'src/emulator/longLines.ts': LONG_LINES,
  'test/unit/longLines.test.ts': LONG_LINES,
};

describe('lint: the layers and cycles', function () {
  // ESLint loads typescript-eslint and the import plugin on first use.
  this.timeout(60_000);
  let dir: string;
  let results: Map<string, ESLint.LintResult>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lint-probe-'));
    for (const [file, text] of Object.entries(PROBES)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const { lintConfig } = (await import(pathToFileURL(join(root, 'eslint.config.mjs')).href)) as { lintConfig: (root: string) => Linter.Config[] };
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: lintConfig(dir) });
    const linted = await eslint.lintFiles(['src', 'test']);
    results = new Map(linted.map((r) => [r.filePath.slice(dir.length + 1), r]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The rules that fired in a probe file, with their messages. */
  function fired(file: string): { ruleId: string | null; message: string }[] {
    const r = results.get(file);
    assert.ok(r, `${file} was linted`);
    return r.messages.map((m) => ({ ruleId: m.ruleId, message: m.message }));
  }

  it('a core file importing the VS Code layer fails, by any relative path', () => {
    for (const file of ['src/auth/importsHost.ts', 'src/webhooks/deep/importsHostFromAfar.ts']) {
      const [m, ...rest] = fired(file);
      assert.equal(rest.length, 0, file);
      assert.equal(m.ruleId, 'import-x/no-restricted-paths', file);
      assert.match(m.message, /never imports the VS Code layer/);
    }
  });

  it('a lower floor importing a higher one fails (storage, on the bottom floor, importing the chat)', () => {
    const [m, ...rest] = fired('src/storage/importsChat.ts');
    assert.equal(rest.length, 0);
    assert.equal(m.ruleId, 'import-x/no-restricted-paths');
    assert.match(m.message, /floors, bottom first: service\/storage\/text → auth\/tunnels → jobs\/usage\/chat → webhooks\/trace → emulator\/webview → bundles\. A floor never imports one above it/);
  });

  it('a floor importing only a type from a floor above fails too', () => {
    const [m, ...rest] = fired('src/auth/importsChatType.ts');
    assert.equal(rest.length, 0);
    assert.equal(m.ruleId, 'import-x/no-restricted-paths');
    assert.match(m.message, /A floor never imports one above it/);
  });

  it('an import cycle fails, in both files, and so does one made of type imports', () => {
    for (const file of ['src/chat/ping.ts', 'src/chat/pong.ts', 'src/jobs/left.ts', 'src/jobs/right.ts']) {
      assert.deepEqual(fired(file).map((m) => m.ruleId), ['local/no-cycle-with-types'], file);
    }
    assert.deepEqual(fired('src/jobs/left.ts').map((m) => m.message), ['Import cycle (type imports count): src/jobs/left.ts → src/jobs/right.ts → src/jobs/left.ts. Move what both need below both.']);
  });

  it('two folders importing each other fail, through type imports alone, at the imports that close the circle', () => {
    assert.deepEqual(fired('src/usage/usesChat.ts').map((m) => [m.ruleId, m.message]), [
      ['local/no-cycle-with-types', 'Folder cycle (type imports count): src/usage → src/chat → src/usage. One of the two folders sits above the other: move what the lower one needs down.'],
    ]);
    assert.deepEqual(fired('src/chat/usesUsage.ts').map((m) => m.message), [
      'Folder cycle (type imports count): src/chat → src/usage → src/chat. One of the two folders sits above the other: move what the lower one needs down.',
    ]);
    assert.deepEqual(fired('src/chat/shapes.ts'), [], 'a file of the folder that takes no part in the circle');
  });

  it('a file of 301 lines fails; 300 pass', () => {
    assert.deepEqual(fired('src/text/tooLong.ts').map((m) => [m.ruleId, m.message]), [['max-lines', 'File has too many lines (301). Maximum allowed is 300.']]);
    assert.deepEqual(fired('src/text/full.ts'), []);
  });

  it('a page importing a Node module or host code fails, and so does a module shared with the pages', () => {
    const node = fired('src/webview/importsNode.ts');
    assert.deepEqual(node.map((m) => m.ruleId), ['no-restricted-imports']);
    assert.match(node[0].message, /run in a browser/);
    const host = fired('src/webview/importsHostCode.ts');
    assert.deepEqual(host.map((m) => m.ruleId), ['import-x/no-restricted-paths']);
    assert.match(host[0].message, /share only the plain modules listed/);
    assert.deepEqual(fired('src/chat/model.ts').map((m) => m.ruleId), ['no-restricted-imports'], 'the chat model is bundled into the pages');
  });

  it('lines past the length limits fail everywhere, the emulator and the tests included', () => {
    assert.deepEqual(LONG_LINES.split('\n').map((l) => l.length), [161, 201, 0]);
    for (const file of ['src/emulator/longLines.ts', 'test/unit/longLines.test.ts']) {
      assert.deepEqual(fired(file).map((m) => [m.ruleId, m.message]), [
        ['max-len', 'This line has a length of 161. Maximum allowed is 160.'],
        ['local/hard-line-limit', 'Line of 201 characters: wrap it under 200.'],
      ], file);
    }
  });

  it('the extension host formatting or sorting through ICU fails; a page may', () => {
    const host = fired('src/vscode/localeCalls.ts');
    assert.deepEqual(host.map((m) => m.ruleId), ['no-restricted-properties', 'no-restricted-properties', 'no-restricted-globals']);
    for (const m of host) assert.match(m.message, /without ICU/);
    assert.deepEqual(fired('src/webview/localeCalls.ts'), []);
  });

  it('imports in the right direction pass', () => {
    for (const file of ['src/vscode/usesCore.ts', 'src/webview/usesTypes.ts', 'src/chat/engine.ts', 'src/vscode/log.ts']) assert.deepEqual(fired(file), [], file);
  });
});
