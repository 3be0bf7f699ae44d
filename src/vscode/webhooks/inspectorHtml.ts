/** The delivery inspector's HTML. */
import type * as vscode from 'vscode';
import { webviewHtml } from '../webviewHtml';
import { loadMarkup } from '../bundles';

export function inspectorHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, { title: 'Delivery', style: 'inspector.css', script: 'inspector.js', body: loadMarkup().inspectorBodyHtml() });
}
