/**
 * What users install (issue #25): the .vsix `npm run package` builds, against its 1.5 MB goal, and
 * the o200k ranks in it (brotli, dist/o200k.br) against the same ranks as the library ships them
 * (a JavaScript array), deflated as the .vsix (a zip) would store them: measured in this run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';

const root = join(__dirname, '..');

export interface PackageSizes {
  vsix: number;
  /** dist/o200k.br as shipped. */
  ranks: number;
  /** The library's ranks module, deflated at the zip's highest level. */
  ranksAsLibraryShipsThem: number;
}

export function benchPackage(): PackageSizes {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const vsix = join(root, `aoai-workbench-${version}.vsix`);
  const built = join(root, 'dist', 'extension.js');
  // The activation bench packages too: its package is reused when nothing was built since.
  if (!existsSync(vsix) || statSync(vsix).mtimeMs < statSync(built).mtimeMs) {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const library = createRequire(join(root, 'package.json')).resolve('gpt-tokenizer/bpeRanks/o200k_base');
  return {
    vsix: statSync(vsix).size,
    ranks: statSync(join(root, 'dist', 'o200k.br')).size,
    ranksAsLibraryShipsThem: deflateRawSync(readFileSync(library), { level: 9 }).length,
  };
}
