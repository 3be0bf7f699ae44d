/**
 * The strings translators get: l10n/bundle.l10n.json is what `npm run l10n` exports from src/
 * (vscode.l10n.t in the host, @vscode/l10n's l10n.t in the core and the pages). A string added
 * without re-exporting, or written so that the exporter cannot read it, would stay English in
 * every language: both fail here.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = new URL('../..', import.meta.url).pathname;
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the l10n bundle', () => {
  it('is what `npm run l10n` exports from src today: no string is left out of it, none is stale', async function () {
    this.timeout(120_000);
    const out = mkdtempSync(join(tmpdir(), 'l10n-export-'));
    try {
      const cli = join(root, 'node_modules/@vscode/l10n-dev/dist/cli.js');
      await promisify(execFile)(process.execPath, [cli, 'export', '--outDir', out, join(root, 'src')], { cwd: root });
      const fresh = read(join(out, 'bundle.l10n.json'));
      const committed = read(join(root, 'l10n/bundle.l10n.json'));
      const missing = Object.keys(fresh).filter((k) => !(k in committed));
      const stale = Object.keys(committed).filter((k) => !(k in fresh));
      assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'run `npm run l10n` and commit l10n/bundle.l10n.json');
      assert.deepEqual(committed, fresh, 'run `npm run l10n` and commit l10n/bundle.l10n.json');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('every l10n.t call names its message as one string literal, which the exporter can read', () => {
    // `l10n.t(a + b)`, `l10n.t(text)` or a template with ${…} are not exported: their text would never be translated.
    const bad: string[] = [];
    for (const file of sources(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\(\s*/g)) {
        const rest = text.slice(m.index + m[0].length);
        const literal = /^(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`$]*`)\s*[,)]/.exec(rest);
        const options = /^\{\s*message:\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*,/.exec(rest);
        if (!literal && !options) bad.push(`${file.slice(root.length)}:${text.slice(0, m.index).split('\n').length}: ${rest.slice(0, 50)}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('package.json points VS Code at the bundles, and the package ships the translated ones', () => {
    const manifest = read(join(root, 'package.json')) as { l10n?: string; scripts: Record<string, string> };
    assert.equal(manifest.l10n, './l10n');
    assert.match(manifest.scripts.l10n, /l10n-dev export --outDir \.\/l10n \.\/src/);
    const shipped = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    for (const pattern of ['!package.nls*.json', '!l10n/bundle.l10n.*.json', '*.qps-ploc.json']) assert.ok(shipped.includes(pattern), pattern);
  });
});
