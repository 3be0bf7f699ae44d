/** Create, edit, delete and copy webhook endpoints; the once-only signing secret goes to SecretStorage. */
import * as vscode from 'vscode';
import { isLoopbackHost } from '../../service/connection';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEndpointInput } from '../../service/types';
import type { ConnectionInfo } from '../connections/connectionStore';
import { logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { WebhookNode } from '../tree/nodes';
import { argsOf, resolveConnection } from './args';
import { confirmed, withProgress } from './registry';

export interface CreateWebhookArgs {
  connectionId: string;
  name: string;
  url: string;
  eventTypes: string[];
}

export interface EditWebhookArgs {
  connectionId: string;
  endpointId: string;
  name?: string;
  url?: string;
  eventTypes?: string[];
}

export interface EndpointArgs {
  connectionId: string;
  endpointId: string;
}

/** Read when a picker opens: VS Code's strings are the user's language by then. */
const eventDescriptions = (): Record<string, string> => ({
  'response.completed': vscode.l10n.t('A background response completed'),
  'response.failed': vscode.l10n.t('A background response failed'),
  'response.cancelled': vscode.l10n.t('A background response was cancelled'),
  'response.incomplete': vscode.l10n.t('A background response ended incomplete'),
  'batch.completed': vscode.l10n.t('A batch completed'),
  'batch.failed': vscode.l10n.t('A batch failed'),
  'batch.cancelled': vscode.l10n.t('A batch was cancelled'),
  'batch.expired': vscode.l10n.t('A batch expired'),
  'fine_tuning.job.succeeded': vscode.l10n.t('A fine-tuning job succeeded'),
  'fine_tuning.job.failed': vscode.l10n.t('A fine-tuning job failed'),
  'fine_tuning.job.cancelled': vscode.l10n.t('A fine-tuning job was cancelled'),
  'realtime.call.incoming': vscode.l10n.t('A real-time call is coming in'),
});

export function validateWebhookUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return vscode.l10n.t('Enter the full address of your listener, e.g. {0}.', 'https://example.com/webhook');
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return vscode.l10n.t('The service delivers only to https:// addresses (http:// works only for loopback).');
}

async function pickEventTypes(title: string, selected: string[]): Promise<string[] | undefined> {
  const descriptions = eventDescriptions();
  const picks = await vscode.window.showQuickPick(
    WEBHOOK_EVENT_TYPES.map((t) => ({ label: t, description: descriptions[t], picked: selected.includes(t) })),
    { title, canPickMany: true, placeHolder: vscode.l10n.t('Choose the events to subscribe to (Space to select, Enter to confirm)'), ignoreFocusOut: true },
  );
  if (!picks) return undefined;
  if (picks.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Choose at least one event type.'));
    return undefined;
  }
  return picks.map((p) => p.label);
}

async function endpointWizard(title: string, current?: WebhookEndpoint): Promise<WebhookEndpointInput | undefined> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0} (1/3): name', title),
    value: current?.name,
    prompt: vscode.l10n.t('A name to recognise the endpoint by.'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name.')),
  });
  if (name === undefined) return undefined;
  const url = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0} (2/3): listener URL', title),
    value: current?.url,
    placeHolder: 'https://example.com/webhook',
    prompt: vscode.l10n.t('Where the service sends deliveries. It must be publicly reachable over HTTPS.'),
    ignoreFocusOut: true,
    validateInput: validateWebhookUrl,
  });
  if (url === undefined) return undefined;
  const eventTypes = await pickEventTypes(vscode.l10n.t('{0} (3/3): events', title), current?.event_types ?? ['response.completed']);
  if (!eventTypes) return undefined;
  return { name: name.trim(), url: url.trim(), event_types: eventTypes };
}

export async function createEndpoint(s: Services, arg: unknown): Promise<WebhookEndpoint | undefined> {
  const conn = await resolveConnection(s, arg, vscode.l10n.t('Create webhook endpoint'));
  if (!conn) return undefined;
  const args = argsOf<CreateWebhookArgs>(arg, 'url');
  const input = args ? { name: args.name, url: args.url, event_types: args.eventTypes } : await endpointWizard(vscode.l10n.t('New webhook endpoint on {0}', conn.label));
  if (!input) return undefined;
  // The service shows the secret this once: the owner keeps it before anything else can fail.
  const endpoint = await withProgress(vscode.l10n.t('Creating webhook endpoint "{0}"…', input.name), () => s.endpoints.create(conn, input));
  logInfo(`Created webhook endpoint ${endpoint.id} "${endpoint.name}" → ${endpoint.url} (${endpoint.event_types.join(', ')}); its signing secret is in secret storage.`);
  if (!args) {
    const created = vscode.l10n.t("Created \"{0}\". Its signing secret is shown only once by the service; it is kept in VS Code's secret storage.", endpoint.name);
    void vscode.window
      .showInformationMessage(plainLine(created, 1000), vscode.l10n.t('Copy Signing Secret'))
      .then((choice) => choice !== undefined && copySecret(s, { connectionId: conn.id, endpointId: endpoint.id }));
  }
  return endpoint;
}

/** The endpoint an invocation is about: from a tree node, or ids, or a pick. */
export async function resolveEndpoint(s: Services, arg: unknown, purpose: string): Promise<{ conn: ConnectionInfo; endpoint: WebhookEndpoint } | undefined> {
  if (arg instanceof WebhookNode) return { conn: arg.connection, endpoint: arg.endpoint };
  const ids = arg as Partial<EndpointArgs> | undefined;
  const conn = await resolveConnection(s, ids?.connectionId ? { connectionId: ids.connectionId } : arg, purpose);
  if (!conn) return undefined;
  const all = await s.endpoints.all(conn);
  if (ids?.endpointId) {
    const endpoint = all.find((e) => e.id === ids.endpointId);
    if (!endpoint) throw new Error(vscode.l10n.t('No webhook endpoint "{0}" on {1}.', ids.endpointId, conn.label));
    return { conn, endpoint };
  }
  if (all.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} has no webhook endpoints.', conn.label));
    return undefined;
  }
  // Names, URLs and types are the service's words: as text.
  const items = all.map((e) => ({ label: plainLine(e.name), description: plainLine(e.url, 300), detail: plainLine(e.event_types.join(', '), 300), endpoint: e }));
  const pick = await vscode.window.showQuickPick(items, { title: purpose });
  return pick && { conn, endpoint: pick.endpoint };
}

export async function editEndpoint(s: Services, arg: unknown): Promise<WebhookEndpoint | undefined> {
  const target = await resolveEndpoint(s, arg, vscode.l10n.t('Edit webhook endpoint'));
  if (!target) return undefined;
  const args = argsOf<EditWebhookArgs>(arg, 'endpointId');
  let changes: Partial<WebhookEndpointInput>;
  if (args && (args.name !== undefined || args.url !== undefined || args.eventTypes !== undefined)) {
    changes = {
      ...(args.name !== undefined && { name: args.name }),
      ...(args.url !== undefined && { url: args.url }),
      ...(args.eventTypes !== undefined && { event_types: args.eventTypes }),
    };
  } else {
    const input = await endpointWizard(vscode.l10n.t('Edit "{0}"', target.endpoint.name), target.endpoint);
    if (!input) return undefined;
    changes = input;
  }
  const updated = await withProgress(vscode.l10n.t('Updating "{0}"…', target.endpoint.name), () => s.endpoints.update(target.conn, target.endpoint.id, changes));
  logInfo(`Updated webhook endpoint ${updated.id}: ${Object.keys(changes).join(', ')}.`);
  return updated;
}

export async function deleteEndpoint(s: Services, arg: unknown): Promise<boolean> {
  const target = await resolveEndpoint(s, arg, vscode.l10n.t('Delete webhook endpoint'));
  if (!target) return false;
  const fromUi = !(arg && typeof arg === 'object' && 'endpointId' in arg);
  if (fromUi) {
    const detail = vscode.l10n.t('{0} stops receiving events. This cannot be undone.', target.endpoint.url);
    if (!(await confirmed(vscode.l10n.t('Delete the webhook endpoint "{0}"?', target.endpoint.name), vscode.l10n.t('Delete'), detail))) return false;
  }
  await withProgress(vscode.l10n.t('Deleting "{0}"…', target.endpoint.name), () => s.endpoints.delete(target.conn, target.endpoint.id));
  logInfo(`Deleted webhook endpoint ${target.endpoint.id} "${target.endpoint.name}".`);
  return true;
}

export async function copySecret(s: Services, arg: unknown): Promise<boolean> {
  const target = await resolveEndpoint(s, arg, vscode.l10n.t('Copy signing secret'));
  if (!target) return false;
  const secret = await s.store.signingSecret(target.conn.id, target.endpoint.id);
  if (!secret) {
    const notHere = [
      vscode.l10n.t('The signing secret of "{0}" is not stored here.', target.endpoint.name),
      vscode.l10n.t('The service shows a secret only once, when the endpoint is created, and this endpoint was created elsewhere.'),
      vscode.l10n.t('Use the secret saved at creation, or create a new endpoint from this sidebar.'),
    ];
    void vscode.window.showWarningMessage(plainLine(notHere.join(' '), 1000));
    return false;
  }
  await vscode.env.clipboard.writeText(secret);
  void vscode.window.showInformationMessage(plainLine(vscode.l10n.t('Copied the signing secret of "{0}".', target.endpoint.name), 1000));
  return true;
}

export async function copyField(s: Services, arg: unknown, field: 'id' | 'url'): Promise<string | undefined> {
  const target = await resolveEndpoint(s, arg, field === 'id' ? vscode.l10n.t('Copy webhook endpoint ID') : vscode.l10n.t('Copy webhook endpoint URL'));
  if (!target) return undefined;
  await vscode.env.clipboard.writeText(target.endpoint[field]);
  void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', target.endpoint[field]), 3000);
  return target.endpoint[field];
}
