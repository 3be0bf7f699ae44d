/** Add, edit, remove, test and import connections; start and stop the local emulator. */
import * as vscode from 'vscode';
import { normalizeEndpoint } from '../../service/connection';
import type { TokenSourceKind } from '../auth/authManager';
import { connectionWizard, type ConnectionDraft } from '../connections/connectionWizard';
import { newConnectionId, type AuthKind, type ConnectionInfo } from '../connections/connectionStore';
import { errorText, logInfo, registerSecret } from '../log';
import { command, isNode, resolveConnection, type Services } from './context';

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

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

const ENV_ENDPOINT = 'AZURE_OPENAI_ENDPOINT';
const ENV_KEY = 'AZURE_OPENAI_API_KEY';

/** AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY, when both are set and not imported yet. */
export function environmentConnection(s: Services): { endpoint: string; apiKey: string } | undefined {
  const raw = process.env[ENV_ENDPOINT];
  const apiKey = process.env[ENV_KEY];
  if (!raw || !apiKey) return undefined;
  let endpoint: string;
  try {
    endpoint = normalizeEndpoint(raw);
  } catch {
    return undefined;
  }
  registerSecret(apiKey);
  return s.store.findByEndpoint(endpoint) ? undefined : { endpoint, apiKey };
}

export async function updateEnvironmentContext(s: Services): Promise<void> {
  await vscode.commands.executeCommand('setContext', 'aoaiWorkbench.envConnectionAvailable', !!environmentConnection(s));
}

async function addConnection(s: Services, args?: AddConnectionArgs): Promise<ConnectionInfo | undefined> {
  let draft: ConnectionDraft | undefined;
  if (args && typeof args === 'object' && 'endpoint' in args) {
    const auth = args.auth ?? 'apiKey';
    if (auth === 'apiKey' && !args.apiKey) throw new Error('An API key is required.');
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
  await updateEnvironmentContext(s);
  return info;
}

async function editConnection(s: Services, arg: unknown): Promise<ConnectionInfo | undefined> {
  const conn = await resolveConnection(s, arg, 'Edit connection');
  if (!conn) return undefined;
  const args = !isNode(arg) && arg && typeof arg === 'object' ? (arg as EditConnectionArgs) : undefined;
  let next: ConnectionInfo;
  let apiKey: string | undefined;
  if (args && (args.endpoint || args.apiKey || args.label || args.apiVersion)) {
    next = { ...conn, label: args.label ?? conn.label, endpoint: args.endpoint ? normalizeEndpoint(args.endpoint) : conn.endpoint, ...(args.apiVersion ? { apiVersion: args.apiVersion } : {}) };
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
  s.tree.refresh();
  logInfo(`Updated connection "${next.label}".`);
  return next;
}

function entraFields(d: ConnectionDraft): Partial<ConnectionInfo> {
  if (d.auth !== 'entraId') return {};
  return { tokenSource: d.tokenSource ?? 'vscode', ...(d.tenantId ? { tenantId: d.tenantId } : {}) };
}

async function removeConnection(s: Services, arg: unknown): Promise<boolean> {
  const conn = await resolveConnection(s, arg, 'Remove connection');
  if (!conn) return false;
  if (isNode(arg) || !(arg as { connectionId?: string })?.connectionId) {
    const ok = await vscode.window.showWarningMessage(`Remove the connection "${conn.label}"?`, { modal: true, detail: 'Its API key is deleted from secret storage. Nothing changes on the resource.' }, 'Remove');
    if (ok !== 'Remove') return false;
  }
  await s.store.remove(conn.id);
  logInfo(`Removed connection "${conn.label}".`);
  await updateEnvironmentContext(s);
  return true;
}

/** Tries what the extension needs: listing deployments, the webhook API, and a chat. */
async function testConnection(s: Services, arg: unknown): Promise<CheckResult[] | undefined> {
  const conn = await resolveConnection(s, arg, 'Test connection');
  if (!conn) return undefined;
  const results = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Testing "${conn.label}"`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const checks: CheckResult[] = [];
      let client;
      try {
        client = await s.clients.get(conn);
      } catch (err) {
        return [{ name: 'Credentials', ok: false, detail: errorText(err) }];
      }
      progress.report({ message: 'listing deployments…' });
      let firstDeployment: string | undefined;
      try {
        const list = await s.clients.listDeployments(conn, abort.signal);
        firstDeployment = list[0]?.name;
        checks.push({ name: 'Deployments', ok: true, detail: `${list.length} listed${list[0]?.source === 'models' ? ' (from the models API)' : list[0]?.source === 'arm' ? ' (from Resource Manager)' : ''}` });
      } catch (err) {
        checks.push({ name: 'Deployments', ok: false, detail: errorText(err) });
      }
      progress.report({ message: 'webhook API…' });
      try {
        const page = await client.listWebhookEndpointsPage({ limit: 100 }, { signal: abort.signal });
        checks.push({ name: 'Webhook API', ok: true, detail: `${page.data.length}${page.has_more ? '+' : ''} endpoints` });
      } catch (err) {
        checks.push({ name: 'Webhook API', ok: false, detail: errorText(err) });
      }
      if (firstDeployment) {
        progress.report({ message: `chat with ${firstDeployment}…` });
        const t0 = Date.now();
        try {
          await client.createChatCompletion({ deployment: firstDeployment, messages: [{ role: 'user', content: 'ping' }] }, { signal: abort.signal });
          checks.push({ name: 'Chat', ok: true, detail: `${firstDeployment} answered in ${Date.now() - t0} ms` });
        } catch (err) {
          checks.push({ name: 'Chat', ok: false, detail: errorText(err) });
        }
      } else {
        checks.push({ name: 'Chat', ok: false, detail: 'skipped: no deployment to try' });
      }
      return checks;
    },
  );
  const summary = results.map((r) => `${r.ok ? '✓' : '✗'} ${r.name}: ${r.detail}`).join('\n');
  logInfo(`Test of "${conn.label}":\n${summary}`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) void vscode.window.showInformationMessage(`"${conn.label}" works. ${results.map((r) => `${r.name}: ${r.detail}.`).join(' ')}`);
  else void vscode.window.showWarningMessage(`"${conn.label}": ${failed.map((r) => `${r.name} failed: ${r.detail}`).join(' ')}`, { modal: false });
  return results;
}

async function importFromEnvironment(s: Services): Promise<ConnectionInfo | undefined> {
  const env = environmentConnection(s);
  if (!env) {
    const imported = process.env[ENV_ENDPOINT] && s.store.findByEndpoint(normalizeEndpointSafe(process.env[ENV_ENDPOINT]!));
    void vscode.window.showInformationMessage(imported ? `${ENV_ENDPOINT} is already a connection.` : `Set ${ENV_ENDPOINT} and ${ENV_KEY} in the environment VS Code starts from, then try again.`);
    return undefined;
  }
  return addConnection(s, { endpoint: env.endpoint, apiKey: env.apiKey, label: `${new URL(env.endpoint).host} (environment)` });
}

function normalizeEndpointSafe(text: string): string {
  try {
    return normalizeEndpoint(text);
  } catch {
    return text;
  }
}

/** Offers the import once per window when the environment holds a connection not imported yet. */
export async function offerEnvironmentImport(s: Services): Promise<void> {
  await updateEnvironmentContext(s);
  const env = environmentConnection(s);
  if (!env) return;
  const choice = await vscode.window.showInformationMessage(
    `${ENV_ENDPOINT} is set to ${env.endpoint}. Add it as a connection? The key from ${ENV_KEY} goes to secret storage.`,
    'Import',
    'Not Now',
  );
  if (choice === 'Import') await vscode.commands.executeCommand('aoai-workbench.importFromEnvironment');
}

async function startLocalEmulator(s: Services): Promise<ConnectionInfo | undefined> {
  const existing = s.store.list().find((c) => c.local);
  if (s.emulator.current && existing) {
    void vscode.window.showInformationMessage(`The local emulator is already running at ${s.emulator.current.url}.`);
    return existing;
  }
  const emu = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the local emulator…' }, () => s.emulator.start());
  const info: ConnectionInfo = { id: newConnectionId(), label: 'Local emulator', endpoint: emu.url, auth: 'apiKey', local: true };
  await s.store.save(info, emu.apiKey);
  logInfo(`Local emulator running at ${emu.url}.`);
  void vscode.window.showInformationMessage(`The local emulator runs at ${emu.url}. Its deployments and webhook endpoints are in the sidebar.`);
  return info;
}

async function stopLocalEmulator(s: Services): Promise<boolean> {
  const stopped = await s.emulator.stop();
  for (const c of s.store.list().filter((x) => x.local)) await s.store.remove(c.id);
  if (stopped) logInfo('Local emulator stopped.');
  return stopped;
}

/** Local connections left behind by a window that closed: their emulator is gone. */
export async function dropStaleLocalConnections(s: Services): Promise<void> {
  if (s.emulator.current) return;
  for (const c of s.store.list().filter((x) => x.local)) await s.store.remove(c.id);
}

export function registerConnectionCommands(s: Services): vscode.Disposable[] {
  return [
    command('addConnection', 'Could not add the connection', (arg) => addConnection(s, arg as AddConnectionArgs | undefined)),
    command('editConnection', 'Could not update the connection', (arg) => editConnection(s, arg)),
    command('removeConnection', 'Could not remove the connection', (arg) => removeConnection(s, arg)),
    command('testConnection', 'Could not test the connection', (arg) => testConnection(s, arg)),
    command('importFromEnvironment', 'Could not import the connection', () => importFromEnvironment(s)),
    command('startLocalEmulator', 'Could not start the local emulator', () => startLocalEmulator(s)),
    command('stopLocalEmulator', 'Could not stop the local emulator', () => stopLocalEmulator(s)),
  ];
}
