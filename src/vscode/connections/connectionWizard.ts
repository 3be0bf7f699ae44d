/** The Add / Edit Connection wizard: endpoint, authentication, key, name. */
import * as vscode from 'vscode';
import { EndpointError, normalizeEndpoint } from '../../service/connection';
import type { AuthKind, ConnectionInfo } from './connectionStore';

export interface ConnectionDraft {
  label: string;
  endpoint: string;
  auth: AuthKind;
  /** Undefined when editing and the user keeps the stored key. */
  apiKey?: string;
}

export function validateEndpoint(text: string): string | undefined {
  try {
    normalizeEndpoint(text);
    return undefined;
  } catch (err) {
    return err instanceof EndpointError ? err.message : String(err);
  }
}

function defaultLabel(endpoint: string): string {
  const host = new URL(endpoint).hostname;
  return host.split('.')[0] === '127' || host === 'localhost' ? `Local (${new URL(endpoint).host})` : host.split('.')[0];
}

/** Returns undefined when the user cancels at any step. */
export async function connectionWizard(existing?: ConnectionInfo): Promise<ConnectionDraft | undefined> {
  const title = existing ? `Edit ${existing.label}` : 'Add Azure OpenAI Connection';
  const rawEndpoint = await vscode.window.showInputBox({
    title: `${title} (1/4): endpoint`,
    prompt: 'The endpoint of your Azure OpenAI or AI Services resource, from the portal\'s "Keys and Endpoint" page.',
    placeHolder: 'https://my-resource.openai.azure.com',
    value: existing?.endpoint,
    ignoreFocusOut: true,
    validateInput: validateEndpoint,
  });
  if (rawEndpoint === undefined) return undefined;
  const endpoint = normalizeEndpoint(rawEndpoint);

  const authPick = await vscode.window.showQuickPick(
    [
      { label: '$(key) API key', description: 'Key 1 or Key 2 of the resource', auth: 'apiKey' as const },
      { label: '$(account) Entra ID', description: 'Keyless sign-in: coming in a later version', auth: 'entraId' as const },
    ],
    { title: `${title} (2/4): authentication`, placeHolder: 'How to authenticate', ignoreFocusOut: true },
  );
  if (!authPick) return undefined;
  if (authPick.auth === 'entraId') {
    void vscode.window.showInformationMessage('Entra ID sign-in is not available yet. Use an API key for now.');
    return undefined;
  }

  const apiKey = await vscode.window.showInputBox({
    title: `${title} (3/4): API key`,
    prompt: existing ? 'Enter a new key, or leave empty to keep the stored one.' : 'The key is kept in VS Code\'s secret storage, never in settings.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (!existing && !v.trim() ? 'Enter the API key.' : /\s/.test(v.trim()) ? 'A key has no spaces.' : undefined),
  });
  if (apiKey === undefined) return undefined;

  const label = await vscode.window.showInputBox({
    title: `${title} (4/4): name`,
    prompt: 'A name for this connection in the sidebar.',
    value: existing?.label ?? defaultLabel(endpoint),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Enter a name.'),
  });
  if (label === undefined) return undefined;
  return { label: label.trim(), endpoint, auth: 'apiKey', apiKey: apiKey.trim() || undefined };
}
