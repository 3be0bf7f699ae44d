// The pseudo-locale (qps-ploc) of the UI journey that looks for English left on screen: made from
// the English texts at test time, as `l10n-dev generate-pseudo` makes it (every letter accented,
// vowels doubled), and laid into the installed extension beside its English files, where VS Code
// looks for a language's translations. Never written into the checkout, so never packaged.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PSEUDO_LOCALE = 'qps-ploc';

/**
 * Generates the pseudo-locale files from the checkout's package.nls.json and l10n bundle.
 * @returns {{ nls: Record<string, string>, bundle: Record<string, string>, install: (extensionsDir: string) => void }}
 */
export function pseudoLocale(root) {
  const dir = mkdtempSync(join(tmpdir(), 'pseudo-locale-'));
  try {
    copyFileSync(join(root, 'package.nls.json'), join(dir, 'package.nls.json'));
    copyFileSync(join(root, 'l10n', 'bundle.l10n.json'), join(dir, 'bundle.l10n.json'));
    // It writes each file's translation beside it (bundle.l10n.qps-ploc.json, package.nls.qps-ploc.json).
    const cli = join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
    execFileSync(process.execPath, [cli, 'generate-pseudo', '--language', PSEUDO_LOCALE, join(dir, 'package.nls.json'), join(dir, 'bundle.l10n.json')], { stdio: 'pipe' });
    const nlsText = readFileSync(join(dir, `package.nls.${PSEUDO_LOCALE}.json`), 'utf8');
    const bundleText = readFileSync(join(dir, `bundle.l10n.${PSEUDO_LOCALE}.json`), 'utf8');
    const install = (extensionsDir) => {
      const ours = readdirSync(extensionsDir).find((n) => n.startsWith('aoai-workbench.aoai-workbench-'));
      if (!ours) throw new Error(`the extension is not installed in ${extensionsDir}`);
      const home = join(extensionsDir, ours);
      mkdirSync(join(home, 'l10n'), { recursive: true });
      writeFileSync(join(home, `package.nls.${PSEUDO_LOCALE}.json`), nlsText);
      writeFileSync(join(home, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`), bundleText);
    };
    return { nls: JSON.parse(nlsText), bundle: JSON.parse(bundleText), install };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

