/** The delivery inspector's HTML. */
import type * as vscode from 'vscode';
import { inspectorBodyHtml } from '../../webview/inspector/markup';
import { webviewHtml } from '../webviewHtml';

export function inspectorHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, { title: 'Delivery', style: 'inspector.css', script: 'inspector.js', body: inspectorBodyHtml() });
}
