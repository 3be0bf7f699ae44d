/**
 * Our webview pages in a real browser (Debian's Chromium through playwright-core), outside VS Code:
 * the page's real script (built here from src/webview, as esbuild.mjs builds it), its real markup
 * and the strings bundle as the extension writes it into the HTML, under a CSP as strict as the
 * panel's (scripts by nonce only). Messages from the extension are posted as VS Code posts them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { getL10nJson, getL10nPseudoLocalized } from '@vscode/l10n-dev';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { bundleBlock, type StringsBundle } from '../../src/webview/shared/l10nBundle';

const root = join(__dirname, '..', '..');

/** The page scripts of dist/webview, by the entry that builds each. */
export const PAGE_SCRIPTS = { pages: 'src/webview/pages.ts', inspector: 'src/webview/inspector/main.ts', usage: 'src/webview/usage/main.ts' };
export type PageScript = keyof typeof PAGE_SCRIPTS;

export async function buildPageScript(name: PageScript): Promise<string> {
  const out = await esbuild.build({ entryPoints: [join(root, PAGE_SCRIPTS[name])], bundle: true, platform: 'browser', format: 'iife', target: 'es2022', write: false });
  return out.outputFiles[0].text;
}

/** The bundle `npm run l10n` exports (`l10n-dev export` over src), as `l10n-dev generate-pseudo` localizes it. */
export async function pseudoBundle(): Promise<StringsBundle> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.ts')) files.push(join(dir, e.name));
    }
  };
  walk(join(root, 'src'));
  const exported = await getL10nJson(files.map((f) => ({ extension: '.ts', contents: readFileSync(f, 'utf8') })));
  const pseudo = getL10nPseudoLocalized(exported);
  return Object.fromEntries(Object.entries(pseudo).map(([k, v]) => [k, typeof v === 'string' ? v : v.message]));
}

/** Pseudo-localizes text the extension would have translated before sending it (its messages, in the fixtures). */
export const pseudo = (text: string) => getL10nPseudoLocalized({ text }).text as string;

/** The page's fixed markup as the extension writes it with this bundle (none: English). */
export function markupIn(bundle: StringsBundle | undefined, markup: () => string): string {
  l10n.config({ contents: bundle ?? {} });
  try {
    return markup();
  } finally {
    l10n.config({ contents: {} });
  }
}

export interface PageSpec {
  script: string;
  markup: string;
  bundle?: StringsBundle;
  /** `<body data-page>`, for the script that serves chat and compare. */
  page?: string;
  css?: string;
}

export interface OpenPage {
  page: Page;
  /** Script errors and CSP violations: none expected. */
  problems: string[];
  post(msg: unknown): Promise<void>;
  /** Every string the page shows or says: text nodes, the title, tooltips, labels, placeholders. */
  strings(): Promise<string[]>;
}

const NONCE = 'harness';
const ORIGIN = 'http://page.test';

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** Runs in the page before its script: the webview's `acquireVsCodeApi` and a record of CSP violations. */
const STUB = `
window.__posted = []; window.__problems = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), setState() {}, getState() { return undefined; } });
document.addEventListener('securitypolicyviolation', (e) => window.__problems.push('CSP blocked ' + e.violatedDirective + ' ' + e.blockedURI));
`;

/** Collects the strings (as text: a transpiled function would carry helpers the page lacks). */
const STRINGS = `(() => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && n.parentElement.closest('script')) continue;
    const t = n.textContent.trim();
    if (t) out.push(t);
  }
  for (const e of document.body.querySelectorAll('*')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = e.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  return out;
})()`;

export async function openPage(browser: Browser, spec: PageSpec): Promise<OpenPage> {
  // A German browser: dates and times the page formats itself carry no English words.
  const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'UTC', viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${NONCE}'`;
  const html = `<!DOCTYPE html><html lang="qps-ploc"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<style>${spec.css ?? ''}</style><title></title></head>
<body${spec.page ? ` data-page="${spec.page}"` : ''}>
${bundleBlock(spec.bundle)}
${spec.markup}
<script nonce="${NONCE}">${STUB}</script>
<script nonce="${NONCE}" src="${ORIGIN}/page.js"></script>
</body></html>`;
  await page.route(`${ORIGIN}/**`, (route) =>
    route.fulfill(route.request().url().endsWith('/page.js') ? { contentType: 'text/javascript', body: spec.script } : { contentType: 'text/html', body: html }),
  );
  return ready(page, problems);
}

/** A file of the extension as a page loads it: the built codicons from their package (dist/ may not be built), the rest from the repo. */
function extensionFile(path: string): Buffer {
  return readFileSync(join(root, path.replace(/^dist\/codicons\//, 'node_modules/@vscode/codicons/dist/')));
}

/**
 * A whole document as the extension writes it (pageDocument, `asset` giving `${ORIGIN}/<path>`,
 * `cspSource` ORIGIN): its stylesheets are the extension's files, fetched under its own CSP, and
 * its script (any `.js` it asks for) is `script`. The theme's variables are set on `<html>` as
 * VS Code sets them, from a script (the CSP allows no inline style).
 */
export interface DocumentSpec {
  document: (origin: string) => string;
  script: string;
  themeVariables: Record<string, string>;
  width?: number;
}

export async function openDocument(browser: Browser, spec: DocumentSpec): Promise<OpenPage> {
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: spec.width ?? 1000, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const theme = `document.addEventListener('DOMContentLoaded', () => {
    for (const [k, v] of Object.entries(${JSON.stringify(spec.themeVariables)})) document.documentElement.style.setProperty('--vscode-' + k, v);
  });`;
  await page.addInitScript(STUB + theme);
  const html = spec.document(ORIGIN);
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname.slice(1);
    if (path === '') return route.fulfill({ contentType: 'text/html', body: html });
    if (path.endsWith('.js')) return route.fulfill({ contentType: 'text/javascript', body: spec.script });
    if (path.endsWith('.css')) return route.fulfill({ contentType: 'text/css', body: extensionFile(path) });
    if (path.endsWith('.ttf')) return route.fulfill({ contentType: 'font/ttf', body: extensionFile(path) });
    return route.fulfill({ status: 404, body: '' });
  });
  return ready(page, problems);
}

/**
 * What is left of English in a page's strings: each with the data taken out (names, URLs, JSON:
 * not translated), the strings that still hold a Latin letter. A pseudo-localized string has none.
 */
export function englishLeft(strings: readonly string[], data: readonly string[]): string[] {
  const longestFirst = [...data].sort((a, b) => b.length - a.length);
  const left = strings.map((s) => longestFirst.reduce((rest, d) => rest.split(d).join(' '), s));
  return [...new Set(strings.filter((_, i) => /[A-Za-z]/.test(left[i])))];
}

/** Loads the page the routes serve and hands it over once its script said it is ready. */
async function ready(page: Page, problems: string[]): Promise<OpenPage> {
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
  const settle = () => page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
  return {
    page,
    problems,
    async post(msg) {
      await page.evaluate(`window.postMessage(${JSON.stringify(msg)}, '*')`);
      await settle();
    },
    async strings() {
      await settle();
      problems.push(...((await page.evaluate('window.__problems.splice(0)')) as string[]));
      return (await page.evaluate(STRINGS)) as string[];
    },
  };
}
