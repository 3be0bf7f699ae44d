/** The usage page's HTML. */
import type * as vscode from 'vscode';
import { usageBodyHtml } from '../../webview/usage/markup';
import { webviewHtml } from '../webviewHtml';

export function usageHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, { title: 'Usage', style: 'usage.css', script: 'usage.js', body: usageBodyHtml() });
}
