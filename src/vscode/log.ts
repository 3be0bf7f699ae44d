/**
 * The extension's LogOutputChannel. Every secret the extension handles is registered here and
 * masked in anything logged, as a second line of defence behind "never log secrets".
 */
import * as vscode from 'vscode';
import { cutText, plainLine } from './plainText';

const secrets = new Set<string>();
let channel: vscode.LogOutputChannel | undefined;

/** Masks `value` wherever it would appear in a log line or a message shown to the user. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) secrets.add(value);
}

/** Bearer tokens change hourly, so they are not registered one by one: anything shaped like a JWT is masked. */
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;

export function redact(text: string): string {
  let out = text.replace(JWT, '***');
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***');
  return out;
}

export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Azure OpenAI Workbench', { log: true });
  return channel;
}

export const logInfo = (message: string) => log().info(redact(message));
export const logError = (message: string) => log().error(redact(message));

/** Shows an error a person can act on (never a stack trace), and logs it. */
export async function showError(prefix: string, err: unknown, ...actions: string[]): Promise<string | undefined> {
  const text = errorText(err);
  log().error(redact(vscode.l10n.t('{0}: {1}', prefix, text)));
  // The error's words (and names in the prefix) are often the service's, a file's or a caller's: shown as text.
  return vscode.window.showErrorMessage(plainLine(redact(vscode.l10n.t('{0}: {1}', prefix, cutText(text, 600))), 1000), ...actions);
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return redact(err.message);
  return redact(String(err));
}

export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
}
