/** Add, edit, remove and test connections. */
import * as vscode from 'vscode';
import { normalizeEndpoint } from '../../service/connection';
import { probeConnection, type CheckResult } from '../../service/probe';
import type { TokenSourceKind } from '../auth/authManager';
import { connectionWizard, type ConnectionDraft } from '../connections/connectionWizard';
import { newConnectionId, type AuthKind, type ConnectionInfo } from '../connections/connectionStore';
import { errorText, logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { argsOf, isNode, resolveConnection } from './args';
import { confirmed, withCancellableProgress } from './registry';

export interface AddConnectionArgs {
  endpoint: string;
  /** Required unless `auth` is 'entraId'. */
  apiKey?: string;
  auth?: AuthKind;
  tokenSource?: TokenSourceKind;
  tenantId?: string;
  armId?: string;
  label?: string;
  apiVersion?: string;
}

export interface EditConnectionArgs {
  connectionId: string;
  endpoint?: string;
  apiKey?: string;
  label?: string;
  apiVersion?: string;
}

export async function addConnection(s: Services, args?: AddConnectionArgs): Promise<ConnectionInfo | undefined> {
  let draft: ConnectionDraft | undefined;
  if (args && typeof args === 'object' && 'endpoint' in args) {
    const auth = args.auth ?? 'apiKey';
    if (auth === 'apiKey' && !args.apiKey) throw new Error(vscode.l10n.t('An API key is required.'));
    const endpoint = normalizeEndpoint(args.endpoint);
    draft = { endpoint, apiKey: auth === 'apiKey' ? args.apiKey : undefined, label: args.label ?? new URL(endpoint).host, auth, tokenSource: args.tokenSource, tenantId: args.tenantId };
  } else {
    draft = await connectionWizard();
    if (!draft) return undefined;
  }
  const info: ConnectionInfo = {
    id: newConnectionId(),
    label: draft.label,
    endpoint: draft.endpoint,
    auth: draft.auth,
    ...entraFields(draft),
    ...(args?.armId ? { armId: args.armId } : {}),
    ...(args?.apiVersion ? { apiVersion: args.apiVersion } : {}),
  };
  await s.store.save(info, draft.apiKey);
  logInfo(`Added connection "${info.label}" (${info.endpoint}).`);
  return info;
}

export async function editConnection(s: Services, arg: unknown): Promise<ConnectionInfo | undefined> {
  const conn = await resolveConnection(s, arg, vscode.l10n.t('Edit connection'));
  if (!conn) return undefined;
  const args = argsOf<EditConnectionArgs>(arg);
  let next: ConnectionInfo;
  let apiKey: string | undefined;
  if (args && (args.endpoint || args.apiKey || args.label || args.apiVersion)) {
    const endpoint = args.endpoint ? normalizeEndpoint(args.endpoint) : conn.endpoint;
    next = { ...conn, label: args.label ?? conn.label, endpoint, ...(args.apiVersion ? { apiVersion: args.apiVersion } : {}) };
    apiKey = args.apiKey;
  } else {
    const draft = await connectionWizard(conn);
    if (!draft) return undefined;
    const { tokenSource: _t, tenantId: _i, ...rest } = conn;
    next = { ...rest, label: draft.label, endpoint: draft.endpoint, auth: draft.auth, ...entraFields(draft) };
    apiKey = draft.apiKey;
  }
  await s.store.save(next, apiKey);
  // Switched to Entra ID: the key is no longer needed, so it does not stay in secret storage.
  if (next.auth === 'entraId' && conn.auth === 'apiKey') await s.store.deleteApiKey(next.id);
  logInfo(`Updated connection "${next.label}".`);
  return next;
}

function entraFields(d: ConnectionDraft): Partial<ConnectionInfo> {
  if (d.auth !== 'entraId') return {};
  return { tokenSource: d.tokenSource ?? 'vscode', ...(d.tenantId ? { tenantId: d.tenantId } : {}) };
}

export async function removeConnection(s: Services, arg: unknown): Promise<boolean> {
  const conn = await resolveConnection(s, arg, vscode.l10n.t('Remove connection'));
  if (!conn) return false;
  if (isNode(arg) || !(arg as { connectionId?: string })?.connectionId) {
    const detail = vscode.l10n.t('Its API key and the signing secrets of its webhook endpoints are deleted from secret storage. Nothing changes on the resource.');
    if (!(await confirmed(vscode.l10n.t('Remove the connection "{0}"?', conn.label), vscode.l10n.t('Remove'), detail))) return false;
  }
  await s.store.remove(conn.id);
  logInfo(`Removed connection "${conn.label}".`);
  return true;
}

/** Tries what the extension needs: listing deployments, the webhook API, and a chat. */
export async function testConnection(s: Services, arg: unknown): Promise<CheckResult[] | undefined> {
  const conn = await resolveConnection(s, arg, vscode.l10n.t('Test connection'));
  if (!conn) return undefined;
  const results = await withCancellableProgress(vscode.l10n.t('Testing "{0}"', conn.label), (signal, report) =>
    probeConnection({
      client: () => s.clients.get(conn),
      listDeployments: (sig) => s.clients.listDeployments(conn, sig),
      signal,
      onStep: (step) => report(step),
      describe: errorText,
    }),
  );
  const summary = results.map((r) => `${r.ok ? '✓' : '✗'} ${r.name}: ${r.detail}`).join('\n');
  logInfo(`Test of "${conn.label}":\n${summary}`);
  const failed = results.filter((r) => !r.ok);
  const works = vscode.l10n.t('"{0}" works.', conn.label);
  // The details are the service's answers: as text.
  if (failed.length === 0) void vscode.window.showInformationMessage(plainLine(`${works} ${results.map((r) => `${r.name}: ${r.detail}.`).join(' ')}`, 1000));
  else void vscode.window.showWarningMessage(plainLine(`"${conn.label}": ${failed.map((r) => vscode.l10n.t('{0} failed: {1}', r.name, r.detail)).join(' ')}`, 1000), { modal: false });
  return results;
}
