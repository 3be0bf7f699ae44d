/**
 * The webview pages get a codicon font and stylesheet cut down to the icons they use
 * (scripts/codicons.mjs, at build time). An icon a page names but the subset lacks draws nothing,
 * with no error anywhere: these tests read the pages' sources their own way and look for each
 * icon in the subset's stylesheet and in its font's character map.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { subsetCodicons } from '../../scripts/codicons.mjs';
import { VERDICT_ICON } from '../../src/webview/inspector/render';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** `.codicon-NAME:before { content: "\eXXX" }` rules of a stylesheet. */
const rulesOf = (css: string) => new Map([...css.matchAll(/\.codicon-([a-z0-9-]+):before \{ content: "\\([0-9a-f]+)" \}/g)].map((m) => [m[1]!, parseInt(m[2]!, 16)]));

describe('Codicons the webview pages ship', () => {
  let rules: Map<string, number>;
  let glyphs: Set<number>;
  let ttfBytes: number;
  before(async () => {
    const subset = await subsetCodicons('.');
    // harfbuzzjs (what subset-font cuts with) reads the font back: an ES module that awaits its WebAssembly.
    const { Blob, Face } = await import('harfbuzzjs');
    rules = rulesOf(subset.css);
    glyphs = new Set(new Face(new Blob(subset.ttf), 0).collectUnicodes());
    ttfBytes = subset.ttf.length;
  });

  const drawn = (name: string) => {
    assert.ok(rules.has(name), `codicon-${name} is used but has no rule in the subset stylesheet`);
    assert.ok(glyphs.has(rules.get(name)!), `codicon-${name} is used but its glyph is not in the subset font`);
  };

  it('has every codicon-* class written in src/ and media/', () => {
    const classes = new Set<string>();
    for (const file of [...filesUnder('src'), ...filesUnder('media')].filter((f) => /\.(ts|css)$/.test(f))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/codicon-([a-z0-9][a-z0-9-]*)/g)) classes.add(m[1]!);
    }
    assert.ok(classes.has('send') && classes.has('debug-restart'), 'the scan finds the pages’ icons');
    for (const name of classes) drawn(name);
  });

  it('has the icons the pages pick in code: icon(...) calls, the verdict icons, the attachment chips', () => {
    const picked = new Set<string>(Object.values(VERDICT_ICON));
    for (const file of filesUnder('src/webview').filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(file, 'utf8');
      // icon('x'), icon(cond ? 'x' : 'y'), attachButton(kind, 'x', …), toolButton(action, 'x', …), iconButton(id, 'x', …)
      for (const m of text.matchAll(/\bicon\(([^()]*)\)/g)) for (const s of m[1]!.matchAll(/'([a-z0-9-]+)'/g)) picked.add(s[1]!);
      for (const m of text.matchAll(/\b(?:attachButton|toolButton|iconButton)\('[^']*', '([a-z0-9-]+)'/g)) picked.add(m[1]!);
    }
    for (const name of ['circle', 'info', 'close', 'comment-discussion', 'list-selection', 'file-add', 'refresh']) assert.ok(picked.has(name), `the scan finds ${name}`);
    for (const name of picked) drawn(name);
  });

  it('has the glyphs stylesheets draw by code point (a finished tool call’s check mark)', () => {
    for (const file of filesUnder('media').filter((f) => f.endsWith('.css'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/content:\s*'\\([0-9a-f]+)'/g)) assert.ok(glyphs.has(parseInt(m[1]!, 16)), `${file} draws U+${m[1]} which the subset font lacks`);
    }
    assert.ok(glyphs.has(0xeab2));
  });

  it('leaves out the icons no page uses', () => {
    assert.ok(!rules.has('github') && !glyphs.has(0xea84), 'an unused icon is gone');
    assert.ok(ttfBytes < 20_000, `the font is ${ttfBytes} bytes`);
  });
});
