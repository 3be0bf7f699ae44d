/** The Add / Edit Connection wizard: endpoint, authentication, key, name. */
import * as vscode from 'vscode';
import { EndpointError, normalizeEndpoint } from '../../service/connection';
import { tokenSources, type TokenSourceKind } from '../auth/authManager';
import type { AuthKind, ConnectionInfo } from './connectionStore';

export interface ConnectionDraft {
  label: string;
  endpoint: string;
  auth: AuthKind;
  /** Undefined when editing and the user keeps the stored key. */
  apiKey?: string;
  tokenSource?: TokenSourceKind;
  tenantId?: string;
}

/** A tenant is a GUID or a verified domain; empty means the account's home tenant. */
export function validateTenant(text: string): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t) || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(t)) return undefined;
  if (t.toLowerCase() === 'common' || t.toLowerCase() === 'organizations') {
    return vscode.l10n.t("\"{0}\" is not a tenant: enter the tenant's ID or domain, or leave empty for your home tenant.", t);
  }
  return vscode.l10n.t('Enter a tenant ID (a GUID) or a domain such as {0}, or leave empty.', 'contoso.onmicrosoft.com');
}

/** Where Entra ID tokens come from; undefined when cancelled. */
export async function pickTokenSource(title: string, current?: TokenSourceKind): Promise<TokenSourceKind | undefined> {
  // The current choice first, so Enter keeps it.
  const items = tokenSources().map((s) => ({
    label: s.label,
    description: s.kind === current ? vscode.l10n.t('{0} (current)', s.description) : s.description,
    source: s.kind,
  }));
  items.sort((a, b) => Number(b.source === current) - Number(a.source === current));
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Where should Entra ID tokens come from?'), ignoreFocusOut: true });
  return pick?.source;
}

export async function askTenant(title: string, current?: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Tenant ID or domain of the resource. Leave empty to use your home tenant.'),
    placeHolder: vscode.l10n.t('{0} or {1}', 'contoso.onmicrosoft.com', '00000000-0000-0000-0000-000000000000'),
    value: current,
    ignoreFocusOut: true,
    validateInput: validateTenant,
  });
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
  return host.split('.')[0] === '127' || host === 'localhost' ? vscode.l10n.t('Local ({0})', new URL(endpoint).host) : host.split('.')[0];
}

/** Returns undefined when the user cancels at any step. */
export async function connectionWizard(existing?: ConnectionInfo): Promise<ConnectionDraft | undefined> {
  const title = existing ? vscode.l10n.t('Edit {0}', existing.label) : vscode.l10n.t('Add Azure OpenAI Connection');
  const rawEndpoint = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0} (1/4): endpoint', title),
    prompt: vscode.l10n.t('The endpoint of your Azure OpenAI or AI Services resource, from the portal\'s "Keys and Endpoint" page.'),
    placeHolder: 'https://my-resource.openai.azure.com',
    value: existing?.endpoint,
    ignoreFocusOut: true,
    validateInput: validateEndpoint,
  });
  if (rawEndpoint === undefined) return undefined;
  const endpoint = normalizeEndpoint(rawEndpoint);

  const authPick = await vscode.window.showQuickPick(
    [
      { label: `$(key) ${vscode.l10n.t('API key')}`, description: vscode.l10n.t('Key 1 or Key 2 of the resource'), auth: 'apiKey' as const },
      {
        label: `$(account) ${vscode.l10n.t('Entra ID')}`,
        description: vscode.l10n.t('Keyless: your Microsoft account, the Azure CLI or DefaultAzureCredential'),
        auth: 'entraId' as const,
      },
    ].sort((a, b) => Number(b.auth === existing?.auth) - Number(a.auth === existing?.auth)),
    { title: vscode.l10n.t('{0} (2/4): authentication', title), placeHolder: vscode.l10n.t('How to authenticate'), ignoreFocusOut: true },
  );
  if (!authPick) return undefined;
  if (authPick.auth === 'entraId') {
    const tokenSource = await pickTokenSource(vscode.l10n.t('{0} (3/4): token source', title), existing?.tokenSource);
    if (!tokenSource) return undefined;
    const tenant = await askTenant(vscode.l10n.t('{0} (3/4): tenant', title), existing?.tenantId);
    if (tenant === undefined) return undefined;
    const label = await askLabel(vscode.l10n.t('{0} (4/4): name', title), existing?.label ?? defaultLabel(endpoint));
    if (label === undefined) return undefined;
    return { label, endpoint, auth: 'entraId', tokenSource, tenantId: tenant.trim() || undefined };
  }

  const apiKey = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0} (3/4): API key', title),
    prompt: existing ? vscode.l10n.t('Enter a new key, or leave empty to keep the stored one.') : vscode.l10n.t("The key is kept in VS Code's secret storage, never in settings."),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (!existing && !v.trim() ? vscode.l10n.t('Enter the API key.') : /\s/.test(v.trim()) ? vscode.l10n.t('A key has no spaces.') : undefined),
  });
  if (apiKey === undefined) return undefined;

  const label = await askLabel(vscode.l10n.t('{0} (4/4): name', title), existing?.label ?? defaultLabel(endpoint));
  if (label === undefined) return undefined;
  return { label, endpoint, auth: 'apiKey', apiKey: apiKey.trim() || undefined };
}

export async function askLabel(title: string, value: string): Promise<string | undefined> {
  const label = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('A name for this connection in the sidebar.'),
    value,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name.')),
  });
  return label?.trim();
}
