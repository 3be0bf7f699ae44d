/** The delivery inspector's HTML: strict CSP with a per-load nonce, only the extension's own files. */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { inspectorBodyHtml } from '../../webview/inspector/markup';

export function inspectorHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'inspector.css')}">
<title>Delivery</title>
</head>
<body>
${inspectorBodyHtml()}
<script nonce="${nonce}" src="${asset('dist', 'webview', 'inspector.js')}"></script>
</body>
</html>`;
}
