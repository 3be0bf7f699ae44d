/** The chat page's HTML. */
import type * as vscode from 'vscode';
import { chatBodyHtml } from '../../webview/chat/markup';
import { webviewHtml } from '../webviewHtml';

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, { title: 'Chat', style: 'chat.css', script: 'pages.js', page: 'chat', body: chatBodyHtml(), images: true });
}
