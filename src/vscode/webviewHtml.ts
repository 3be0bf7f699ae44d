/**
 * A webview page of ours: strict CSP with a per-load nonce, only the extension's own files, and the
 * strings bundle of VS Code's display language for the page's own text (src/webview/shared). The
 * document itself is pageDocument's (src/webview/shared/pageDocument.ts). The fixed markup (each
 * page's markup.ts) is built in the extension with @vscode/l10n, which activation configures with
 * the same bundle (./strings.ts).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { pageDocument, type PageDocument } from '../webview/shared/pageDocument';

/** What a page says of itself; the rest of its document is this webview's. */
type WebviewPage = Pick<PageDocument, 'title' | 'style' | 'script' | 'page' | 'body' | 'images'>;

/** VS Code's display language for `<html lang>` (screen readers speak the page in it): a tag is letters, digits and hyphens. */
const languageTag = () => vscode.env.language.replace(/[^A-Za-z0-9-]/g, '') || 'en';

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  return pageDocument({
    ...page,
    lang: languageTag(),
    cspSource: webview.cspSource,
    asset: (...p) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString(),
    nonce: randomBytes(16).toString('base64'),
    bundle: vscode.l10n.bundle,
  });
}
