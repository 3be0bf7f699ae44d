/** The chat page's HTML. */
import type * as vscode from 'vscode';
import { webviewHtml } from '../webviewHtml';
import { loadMarkup } from '../bundles';

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, { title: 'Chat', style: 'chat.css', script: 'pages.js', page: 'chat', body: loadMarkup().chatBodyHtml(), images: true });
}
