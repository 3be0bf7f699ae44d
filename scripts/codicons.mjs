/**
 * The codicon font and stylesheet for the webview pages, cut down to the icons the pages use: the
 * full font has 540 glyphs (126 KB, a third of it kept by the .vsix's zip), the pages use a few
 * dozen. An icon counts as used when its name appears in a page's source as a `codicon-NAME` class
 * or as a whole string ('NAME', "NAME", `NAME`: what `icon('pass')` and the icon maps pass), or its
 * code point in a stylesheet's `content`. test/unit/codicons.test.ts checks that every icon the
 * pages name is in the subset, glyph and rule, so a new one cannot silently draw nothing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import subsetFont from 'subset-font';

const CODICONS = 'node_modules/@vscode/codicons/dist';

/** The sources of what the webviews show: their scripts, the HTML the extension writes for them, their stylesheets. */
export function pageSources(root) {
  const files = [];
  const walk = (dir, keep) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path, keep);
      else if (keep(name)) files.push(path);
    }
  };
  walk('src/webview', (n) => n.endsWith('.ts'));
  walk('src/vscode', (n) => n.endsWith('Html.ts'));
  walk('media', (n) => n.endsWith('.css'));
  return files;
}

/** Every icon rule of the package's stylesheet: name → code point (several names may share one). */
export function codiconRules(root) {
  const css = readFileSync(join(root, CODICONS, 'codicon.css'), 'utf8');
  return new Map([...css.matchAll(/^\.codicon-([a-z0-9-]+):before \{ content: "\\([0-9a-f]+)" \}$/gm)].map((m) => [m[1], parseInt(m[2], 16)]));
}

/** The icon names and extra code points the page sources use. */
export function usedCodicons(root) {
  const rules = codiconRules(root);
  const names = new Set();
  const codePoints = new Set();
  for (const file of pageSources(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/codicon-([a-z0-9-]+)/g)) if (rules.has(m[1])) names.add(m[1]);
    for (const m of text.matchAll(/(['"`])([a-z0-9-]+)\1/g)) if (rules.has(m[2])) names.add(m[2]);
    for (const m of text.matchAll(/content:\s*(['"])\\([0-9a-f]{4,5})\1/gi)) codePoints.add(parseInt(m[2], 16));
  }
  for (const n of names) codePoints.add(rules.get(n));
  return { names: [...names].sort(), codePoints: [...codePoints].sort((a, b) => a - b) };
}

/**
 * The stylesheet with only the used icons' rules (its font-face, base and modifier rules as they
 * are), and the font with only their glyphs.
 */
export async function subsetCodicons(root) {
  const { names, codePoints } = usedCodicons(root);
  const keep = new Set(names);
  const css = readFileSync(join(root, CODICONS, 'codicon.css'), 'utf8')
    .split('\n')
    .filter((line) => {
      const m = /^\.codicon-([a-z0-9-]+):before \{/.exec(line);
      return !m || keep.has(m[1]);
    })
    .join('\n');
  const ttf = await subsetFont(readFileSync(join(root, CODICONS, 'codicon.ttf')), String.fromCodePoint(...codePoints), { targetFormat: 'truetype' });
  return { css, ttf, names, codePoints };
}
