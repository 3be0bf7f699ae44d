/**
 * Entry point: wires the VS Code layer to the core. It stays cheap: nothing heavy is loaded
 * here; features load their modules when first used.
 */
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Commands, views and the webview controllers are registered here as they arrive.
}

export function deactivate(): void {}
