/** The usage page's HTML. */
import type * as vscode from 'vscode';
import { webviewHtml } from '../webviewHtml';
import { loadMarkup } from '../bundles';

export function usageHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, { title: 'Usage', style: 'usage.css', script: 'usage.js', body: loadMarkup().usageBodyHtml() });
}
