/**
 * A webview page of ours: strict CSP with a per-load nonce, only the extension's own files, and the
 * strings bundle of VS Code's display language for the page's own text (src/webview/shared). The
 * fixed markup (each page's markup.ts) is built in the extension with @vscode/l10n, which
 * activation configures with the same bundle (./strings.ts).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { bundleBlock } from '../webview/shared/l10nBundle';

export interface WebviewPage {
  title: string;
  /** The page's stylesheet under media/ and its script under dist/webview/. */
  style: string;
  script: string;
  /** Which page a script that serves several shows (`<body data-page>`). */
  page?: string;
  body: string;
  /** Allows images from the extension's own files. */
  images?: boolean;
}

/** VS Code's display language for `<html lang>` (screen readers speak the page in it): a tag is letters, digits and hyphens. */
const languageTag = () => vscode.env.language.replace(/[^A-Za-z0-9-]/g, '') || 'en';

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    ...(page.images ? [`img-src ${webview.cspSource}`] : []),
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${languageTag()}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', page.style)}">
<title>${page.title}</title>
</head>
<body${page.page ? ` data-page="${page.page}"` : ''}>
${bundleBlock(vscode.l10n.bundle)}
${page.body}
<script nonce="${nonce}" src="${asset('dist', 'webview', page.script)}"></script>
</body>
</html>`;
}
