/** How commands are registered and how they show cancellable work. */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { FilesApi, UploadPurpose } from '../../service/files';
import type { FileObject } from '../../service/jobTypes';
import type { CommandId } from '../contributions';
import { showError } from '../log';
import { plainLine } from '../plainText';

/**
 * Registers a command. A failure becomes a clear error message (never a stack trace) and the
 * command returns undefined, so callers and tests see the same outcome.
 */
/** How many of our commands the user has started in this window (the walkthrough waits for a quiet moment). */
let started = 0;
export const commandsStarted = (): number => started;

export function command<T>(id: CommandId, failure: string, fn: (arg: unknown) => Promise<T> | T): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (arg: unknown) => {
    started++;
    try {
      return await fn(arg);
    } catch (err) {
      // Not awaited: the command ends now; the message stays until the user closes it.
      void showError(failure, err);
      return undefined;
    }
  });
}

/** A notification with a Cancel button; cancelling aborts the signal `work` gets. */
export function withCancellableProgress<T>(
  title: string,
  work: (signal: AbortSignal, report: (message: string, increment?: number) => void) => Promise<T>,
): Thenable<T> {
  // A progress notification renders links as a notification does; its title names a file, a batch, an endpoint.
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: plainLine(title, 300), cancellable: true }, (progress, token) => {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    return work(abort.signal, (message, increment) => progress.report({ message: plainLine(message), increment }));
  });
}

/** Uploads a file with a cancellable notification that counts the percent sent. */
export function uploadWithProgress(files: FilesApi, path: string, purpose: UploadPurpose): Thenable<FileObject> {
  return withCancellableProgress(vscode.l10n.t('Uploading {0}', basename(path)), (signal, report) => {
    let shown = 0;
    return files.upload(path, {
      purpose,
      signal,
      onProgress: (sent, total) => {
        const percent = Math.floor((sent / Math.max(total, 1)) * 100);
        if (percent > shown) report(vscode.l10n.t('{0} %', percent), percent - shown);
        shown = percent;
      },
    });
  });
}

/** Asks in a modal dialog before acting: true when the user pressed `button` (Cancel, Escape or closing it: false). */
export async function confirmed(question: string, button: string, detail?: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(question, { modal: true, detail }, button)) === button;
}

/** A notification while `work` runs (not cancellable). */
export function withProgress<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: plainLine(title, 300) }, work);
}

/** Shows data from the service as an indented, unsaved JSON document (a preview tab). */
export async function showJson(value: unknown): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(value, null, 2) });
  await vscode.window.showTextDocument(doc, { preview: true });
}
