/**
 * The core's strings (errors and explanations from src/service, src/chat, src/webhooks…) are
 * written with @vscode/l10n, since the core cannot import `vscode`: at activation it gets the
 * translations VS Code loaded for the extension (l10n/bundle.l10n.<locale>.json), so both speak
 * the user's language. In English there is no bundle and both keep the text as written.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

export function configureCoreStrings(): void {
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
}
