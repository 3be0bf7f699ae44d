/**
 * A page's HTML document, as the extension writes it for a webview (src/vscode/webviewHtml.ts):
 * a strict CSP (styles, fonts and images only from the extension's own files, scripts by nonce
 * only), the shared stylesheet before the page's own, the strings bundle and the page's script.
 * Plain text in, text out, so that a test renders the very document the extension builds.
 */
import { bundleBlock, type StringsBundle } from './l10nBundle';

export interface PageDocument {
  /** `<html lang>`: letters, digits and hyphens. */
  lang: string;
  /** The origin the webview serves the extension's files from (`webview.cspSource`). */
  cspSource: string;
  /** A file of the extension (path parts under its root) as the webview loads it. */
  asset: (...path: string[]) => string;
  nonce: string;
  title: string;
  /** The page's stylesheet under media/ and its script under dist/webview/. */
  style: string;
  script: string;
  /** Which page a script that serves several shows (`<body data-page>`). */
  page?: string;
  body: string;
  bundle?: StringsBundle;
  /** Allows images from the extension's own files. */
  images?: boolean;
}

/** Codicons, the controls every page shares (media/controls.css), then the page's own rules, which may refine them. */
export const pageStylesheets = (style: string): string[][] => [
  ['dist', 'codicons', 'codicon.css'],
  ['media', 'controls.css'],
  ['media', style],
];

export function pageDocument(d: PageDocument): string {
  const csp = [
    "default-src 'none'",
    `style-src ${d.cspSource}`,
    `font-src ${d.cspSource}`,
    ...(d.images ? [`img-src ${d.cspSource}`] : []),
    `script-src 'nonce-${d.nonce}'`,
  ].join('; ');
  const links = pageStylesheets(d.style).map((p) => `<link rel="stylesheet" href="${d.asset(...p)}">`);
  return `<!DOCTYPE html>
<html lang="${d.lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links.join('\n')}
<title>${d.title}</title>
</head>
<body${d.page ? ` data-page="${d.page}"` : ''}>
${bundleBlock(d.bundle)}
${d.body}
<script nonce="${d.nonce}" src="${d.asset('dist', 'webview', d.script)}"></script>
</body>
</html>`;
}
