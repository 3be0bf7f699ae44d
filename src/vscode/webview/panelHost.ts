/**
 * The host side of one of our webview panels (the chat, the delivery inspector): the page's HTML
 * and options, the ready handshake (a page that loads, or reloads, says `ready` and has nothing
 * until it is sent what it shows), typed posts that stop once the panel is gone, and every
 * message from the page validated before it is handled. A message that does not parse is logged
 * and dropped; one whose handling fails is logged and said to the user, never thrown at VS Code.
 */
import * as vscode from 'vscode';
import { logError, redact } from '../log';
import { plainLine } from '../plainText';

export interface PanelPage<Host, View extends { type: string }> {
  /** What the logs call the page ("the chat view"). */
  label: string;
  /** The page's HTML for this webview (see webviewHtml.ts). */
  html: (webview: vscode.Webview) => string;
  /** Checks a message from the page: the message, or undefined to drop it. */
  parse: (raw: unknown) => View | undefined;
  /** The page (re)loaded and has nothing yet: send it what it shows. */
  onReady: () => Promise<void> | void;
  /** Every other valid message. */
  onMessage: (msg: Exclude<View, { type: 'ready' }>) => Promise<void> | void;
  /** A message's handling failed (default: an error message naming what happened). */
  onError?: (err: Error) => void;
  /** Messages posted to the page, for a caller that wants to watch them (tests do). */
  onPost?: (msg: Host) => void;
}

/** The options every page of ours needs: scripts on, only the extension's own files. */
export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

export class PanelHost<Host, View extends { type: string }> implements vscode.Disposable {
  private disposed = false;
  private readonly subs: vscode.Disposable[];

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly page: PanelPage<Host, View>,
    onDispose: () => void,
  ) {
    panel.webview.options = panelOptions(extensionUri);
    panel.webview.html = page.html(panel.webview);
    this.subs = [
      panel.webview.onDidReceiveMessage((raw) => void this.receive(raw)),
      panel.onDidDispose(() => {
        this.disposed = true;
        onDispose();
      }),
    ];
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Sends a message to the page; nothing once the panel is closed. */
  post(msg: Host): void {
    if (this.disposed) return;
    this.page.onPost?.(msg);
    void this.panel.webview.postMessage(msg);
  }

  /** Entry point for everything the page sends. */
  async receive(raw: unknown): Promise<void> {
    const msg = this.page.parse(raw);
    if (!msg) {
      logError(`Ignored an invalid message from ${this.page.label}: ${redact(JSON.stringify(raw)?.slice(0, 200) ?? String(raw))}`);
      return;
    }
    try {
      if (msg.type === 'ready') await this.page.onReady();
      else await this.page.onMessage(msg as Exclude<View, { type: 'ready' }>);
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      logError(`${this.page.label}: ${redact(e.message)}`);
      if (this.page.onError) this.page.onError(e);
      else void vscode.window.showErrorMessage(plainLine(redact(e.message), 600));
    }
  }

  dispose(): void {
    this.disposed = true;
    this.subs.forEach((d) => d.dispose());
    this.panel.dispose();
  }
}

/**
 * Brings a page's panels back after a window reload: VS Code hands over the panel and the state
 * the page saved (`setState`). A failure is logged and the panel closed, rather than left blank.
 */
export function registerPanelSerializer(viewType: string, restore: (panel: vscode.WebviewPanel, state: unknown) => Promise<void> | void): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, {
    deserializeWebviewPanel: async (panel, state) => {
      try {
        await restore(panel, state);
      } catch (err) {
        logError(`Could not restore a ${viewType} panel: ${redact((err as Error).message)}`);
        panel.dispose();
      }
    },
  });
}
