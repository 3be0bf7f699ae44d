/** The trace timeline page: a webview of its own per trace, fed through the typed protocol once the page says ready. */
import * as vscode from 'vscode';
import type { Trace } from '../../trace/types';
import { parseTraceViewMessage, type TraceHostMessage } from '../../webview/trace/protocol';
import { traceBodyHtml } from '../../webview/trace/markup';
import { webviewHtml } from '../webviewHtml';

export function showTimeline(extensionUri: vscode.Uri, trace: Trace): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel('aoaiWorkbench.trace', vscode.l10n.t('Trace: {0}', trace.title), vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
  });
  panel.webview.html = webviewHtml(panel.webview, extensionUri, { title: vscode.l10n.t('Trace'), style: 'trace.css', script: 'pages.js', page: 'trace', body: traceBodyHtml() });
  const post = (msg: TraceHostMessage) => void panel.webview.postMessage(msg);
  panel.webview.onDidReceiveMessage((raw: unknown) => {
    if (parseTraceViewMessage(raw)?.type === 'ready') post({ type: 'trace', trace });
  });
  return panel;
}
