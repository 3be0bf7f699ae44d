/** Start/stop listening, test events, and what can be done with a received event. */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { request } from 'undici';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../../service/types';
import type { DeliveryRecord } from '../../webhooks/listener';
import { CLOUDFLARED_VERSION, cloudflaredDownloadUrl, downloadCloudflared, downloadedCloudflaredPath, hasDownloadedCloudflared, type Downloaded } from '../../tunnels/cloudflaredDownload';
import { webhookDispatcher } from '../../webhooks/outbound';
import { signedHeaders } from '../../webhooks/signature';
import { replayableBody } from '../../webhooks/replayable';
import { logInfo, showError } from '../log';
import { EventNode, type EventFilter, type EventsTree } from '../webhooks/eventsTree';
import { prettyBody, type ProviderChoice } from '../webhooks/listenerController';
import { command, resolveConnection, type Services } from './context';
import { proxySettings } from '../proxySettings';

export const EVENT_SCHEME = 'aoai-webhook-event';

export interface StartListeningArgs {
  connectionId: string;
  /** A tunnel named here is used even for a local service (which otherwise needs none). */
  provider?: ProviderChoice;
  /** What to do with an endpoint once listening (no prompt when given). */
  endpoint?: { mode: 'create'; name: string; eventTypes: string[] } | { mode: 'update'; endpointId: string } | { mode: 'skip' };
  /** The answer to "download cloudflared?" when it is missing (no prompt when given). */
  downloadCloudflared?: boolean;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const newWebhookId = () => `msg_${randomBytes(12).toString('hex')}`;

function recordOf(s: Services, arg: unknown): DeliveryRecord {
  if (arg instanceof EventNode) return arg.record;
  const id = (arg as { eventId?: string } | undefined)?.eventId;
  const r = id ? s.listener.events.get(id) : undefined;
  if (!r) throw new Error('Choose an event in the Webhook Events view.');
  return r;
}

function secretFor(s: Services, r: DeliveryRecord): string {
  // Only the secret that verified it: re-signing a rejected delivery would forge a valid one.
  const known = r.endpointId ? s.listener.knownSecrets().find((k) => k.endpointId === r.endpointId) : undefined;
  if (!known) throw new Error('No signing secret is known for this event\'s endpoint, so it cannot be re-signed. Start listening for its connection first.');
  return known.secret;
}

async function offerEndpoint(s: Services, args: StartListeningArgs['endpoint'] | undefined): Promise<string | undefined> {
  const state = s.listener.state!;
  const client = await s.clients.get(state.connection);
  const url = `${state.publicUrl}/webhook`;
  let choice = args;
  if (!choice) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: '$(add) Create a webhook endpoint', description: url, mode: 'create' as const },
        { label: '$(edit) Point an existing endpoint here', description: 'updates its URL', mode: 'update' as const },
        { label: 'Skip', description: 'the endpoint is set up already', mode: 'skip' as const },
      ],
      { title: `Listening at ${state.publicUrl}`, placeHolder: 'Point a webhook endpoint at the listener?', ignoreFocusOut: true },
    );
    if (!pick || pick.mode === 'skip') return undefined;
    if (pick.mode === 'create') {
      const types = await vscode.window.showQuickPick(WEBHOOK_EVENT_TYPES.map((t) => ({ label: t, picked: t.startsWith('response.') })), { title: 'Events to receive', canPickMany: true, ignoreFocusOut: true });
      if (!types?.length) return undefined;
      choice = { mode: 'create', name: `VS Code listener (${new Date().toLocaleDateString()})`, eventTypes: types.map((t) => t.label) };
    } else {
      const all: WebhookEndpoint[] = [];
      for await (const e of client.listWebhookEndpoints()) all.push(e);
      const e = await vscode.window.showQuickPick(all.map((x) => ({ label: x.name, description: x.url, endpoint: x })), { title: 'Endpoint to point at the listener' });
      if (!e) return undefined;
      choice = { mode: 'update', endpointId: e.endpoint.id };
    }
  }
  if (choice.mode === 'skip') return undefined;
  if (choice.mode === 'create') {
    const created = await client.createWebhookEndpoint({ name: choice.name, url, event_types: choice.eventTypes });
    await s.store.storeSigningSecret(state.connection.id, created.id, created.signing_secret);
    s.tree.markSecret(state.connection.id, created.id, true);
    state.createdEndpointId = created.id;
    s.listener.output.info(`Created webhook endpoint ${created.id} → ${url}; its signing secret is in secret storage.`);
  } else {
    await client.updateWebhookEndpoint(choice.endpointId, { url });
    if (!(await s.store.signingSecret(state.connection.id, choice.endpointId))) {
      void vscode.window.showWarningMessage('That endpoint was not created here, so its signing secret is unknown and its deliveries will be rejected. Create a new endpoint to capture a secret.');
    }
    s.listener.output.info(`Pointed webhook endpoint ${choice.endpointId} at ${url}.`);
  }
  await s.listener.refreshSecrets();
  const group = s.tree.connectionNode(state.connection.id)?.webhooks;
  if (group) s.tree.refresh(group);
  return choice.mode === 'create' ? state.createdEndpointId : choice.endpointId;
}

async function startListening(s: Services, arg: unknown) {
  const args = arg && typeof arg === 'object' && 'connectionId' in arg ? (arg as StartListeningArgs) : undefined;
  const conn = await resolveConnection(s, args, 'Start listening for webhooks');
  if (!conn) return undefined;
  const provider = args?.provider ?? vscode.workspace.getConfiguration('aoaiWorkbench').get<ProviderChoice>('tunnel.provider', 'localtunnel');
  const tunnel = s.listener.providerFor(conn, provider, args?.provider !== undefined);
  const check = await tunnel?.check();
  if (check && !check.ok) {
    // Only with the user's consent: nothing is fetched from the internet otherwise.
    const consent =
      check.canDownload &&
      (args?.downloadCloudflared ??
        (await vscode.window.showWarningMessage(
          'Cloudflare quick tunnels need cloudflared, which is not installed.',
          { modal: true, detail: `Download cloudflared ${CLOUDFLARED_VERSION} from ${cloudflaredDownloadUrl(vscode.workspace.getConfiguration('aoaiWorkbench').get<string>('tunnel.cloudflaredDownloadUrl') || undefined)} (about 40 MB, checked against its pinned SHA-256) into this extension's storage? It is used only for the webhook tunnel, and you can delete it with "Delete Downloaded cloudflared". Or install it yourself and put it on PATH.` },
          'Download cloudflared',
        )) === 'Download cloudflared');
    if (!consent) {
      if (args) throw new Error(check.message);
      // From the UI: say what is missing, and offer the way around it.
      void showError('Could not start listening', new Error(check.message), 'Choose Another Tunnel').then(async (action) => {
        if (action && (await chooseTunnelProvider(provider))) await vscode.commands.executeCommand('aoai-workbench.startListening', arg);
      });
      return undefined;
    }
    await downloadCloudflaredWithProgress(s);
  }
  const state = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the webhook listener…', cancellable: true }, (progress, token) => {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    if (tunnel) progress.report({ message: `opening the ${tunnel.label} tunnel…` });
    return s.listener.start(conn, tunnel, abort.signal);
  });
  const endpointId = await offerEndpoint(s, args?.endpoint);
  if (!args) void vscode.window.showInformationMessage(`Listening for webhooks at ${state.publicUrl}. Deliveries show in the Webhook Events view.`);
  return { localUrl: state.localUrl, publicUrl: state.publicUrl, endpointId };
}

const TUNNEL_CHOICES: Array<{ id: ProviderChoice; label: string; detail: string }> = [
  { id: 'localtunnel', label: 'localtunnel', detail: 'No account: the public loca.lt, or your own server ("aoaiWorkbench.tunnel.localtunnelHost").' },
  { id: 'cloudflared', label: 'Cloudflare quick tunnel', detail: 'No account: cloudflared on PATH, or downloaded when you agree.' },
  { id: 'ngrok', label: 'ngrok', detail: 'An ngrok account, its authtoken and the ngrok agent on PATH.' },
  { id: 'devtunnel', label: 'Microsoft Dev Tunnels', detail: 'The devtunnel CLI, signed in ("devtunnel user login").' },
  { id: 'manual', label: 'Manual URL', detail: 'A public URL you forward to the listener yourself ("aoaiWorkbench.tunnel.manualUrl").' },
];

/** Lets the user pick the tunnel setting; true when it changed. */
async function chooseTunnelProvider(current: ProviderChoice): Promise<boolean> {
  const pick = await vscode.window.showQuickPick(
    TUNNEL_CHOICES.map((c) => ({ ...c, description: c.id === current ? 'current' : undefined })),
    { title: 'Tunnel for the webhook listener', placeHolder: 'How deliveries reach VS Code from the internet' },
  );
  if (!pick || pick.id === current) return false;
  await vscode.workspace.getConfiguration('aoaiWorkbench').update('tunnel.provider', pick.id, vscode.ConfigurationTarget.Global);
  if (pick.id === 'manual' && !vscode.workspace.getConfiguration('aoaiWorkbench').get<string>('tunnel.manualUrl')) {
    const url = await vscode.window.showInputBox({ title: 'Public URL that forwards to the listener', placeHolder: 'https://…', ignoreFocusOut: true, validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : 'Enter an http(s):// URL.') });
    if (!url) return false;
    await vscode.workspace.getConfiguration('aoaiWorkbench').update('tunnel.manualUrl', url.trim(), vscode.ConfigurationTarget.Global);
  }
  return true;
}

/** Downloads cloudflared into global storage with a cancellable progress notification. */
async function downloadCloudflaredWithProgress(s: Services): Promise<Downloaded> {
  const baseUrl = vscode.workspace.getConfiguration('aoaiWorkbench').get<string>('tunnel.cloudflaredDownloadUrl') || undefined;
  const done = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Downloading cloudflared', cancellable: true }, (progress, token) => {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    let shown = 0;
    return downloadCloudflared({
      storageDir: s.listener.storageDir,
      baseUrl,
      proxy: proxySettings(),
      signal: abort.signal,
      onProgress: (received, total) => {
        if (!total) return progress.report({ message: `${(received / 1048576).toFixed(1)} MB` });
        const percent = Math.floor((received / total) * 100);
        if (percent > shown) progress.report({ increment: percent - shown, message: `${percent}% of ${(total / 1048576).toFixed(1)} MB` });
        shown = percent;
      },
    });
  });
  s.listener.output.info(`Downloaded cloudflared ${done.version} (${done.bytes} bytes, SHA-256 ${done.sha256}) to ${done.path}.`);
  return done;
}

async function deleteDownloadedCloudflared(s: Services): Promise<boolean> {
  const path = downloadedCloudflaredPath(s.listener.storageDir);
  if (!hasDownloadedCloudflared(s.listener.storageDir)) {
    void vscode.window.showInformationMessage('No downloaded cloudflared to delete.');
    return false;
  }
  if (s.listener.state?.provider === 'cloudflared') throw new Error('The Cloudflare tunnel is running: stop listening first.');
  await rm(dirname(path), { recursive: true, force: true });
  s.listener.output.info(`Deleted the downloaded cloudflared (${path}).`);
  return true;
}

async function stopListening(s: Services, arg: unknown) {
  const state = await s.listener.stop();
  if (!state) return false;
  let remove = (arg as { deleteEndpoint?: boolean } | undefined)?.deleteEndpoint;
  if (state.createdEndpointId && remove === undefined) {
    remove = (await vscode.window.showInformationMessage('Stopped listening. Delete the webhook endpoint that "Start Listening" created?', 'Delete Endpoint', 'Keep')) === 'Delete Endpoint';
  }
  if (state.createdEndpointId && remove) {
    const client = await s.clients.get(state.connection);
    await client.deleteWebhookEndpoint(state.createdEndpointId);
    await s.store.deleteSigningSecret(state.connection.id, state.createdEndpointId);
    const group = s.tree.connectionNode(state.connection.id)?.webhooks;
    if (group) s.tree.refresh(group);
  }
  return true;
}

/** Sends a signed event through the public URL (and asks the service's test route, where it has one). */
async function sendTestEvent(s: Services, arg: unknown) {
  const state = s.listener.state;
  if (!state) throw new Error('Start listening first.');
  const type = (arg as { eventType?: string } | undefined)?.eventType ?? (await vscode.window.showQuickPick([...WEBHOOK_EVENT_TYPES], { title: 'Send a test event of type' }));
  if (!type) return undefined;
  const known = s.listener.knownSecrets()[0];
  if (!known) throw new Error('No signing secret is known for this connection\'s endpoints: create an endpoint (Start Listening offers it) so test events can be signed.');
  const data = type === 'realtime.call.incoming' ? { call_id: `rtc_test_${Date.now()}`, sip_headers: [{ name: 'From', value: 'sip:test@example.com' }] } : { id: `${type.startsWith('response') ? 'resp' : type.startsWith('batch') ? 'batch' : 'ftjob'}_test_${Date.now()}` };
  const body = JSON.stringify({ object: 'event', id: `evt_test_${randomBytes(8).toString('hex')}`, type, created_at: Math.floor(Date.now() / 1000), data });
  const res = await request(`${state.publicUrl}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'aoai-workbench test event', ...signedHeaders(known.secret, newWebhookId(), body) }, body, dispatcher: webhookDispatcher });
  await res.body.dump();
  let service = 'not tried';
  try {
    const client = await s.clients.get(state.connection);
    const t = await client.testWebhookEndpoint(known.endpointId, type);
    service = `the service's test route answered (listener status ${t.status_code ?? '?'})`;
  } catch (err) {
    service = `the service has no test route here (${(err as Error).message.split('.')[0]})`;
  }
  s.listener.output.info(`Test event ${type} sent through ${state.publicUrl}: listener answered ${res.statusCode}; ${service}.`);
  return { status: res.statusCode };
}

async function replay(s: Services, arg: unknown) {
  const r = recordOf(s, arg);
  const keep = (arg as { keepWebhookId?: boolean } | undefined)?.keepWebhookId ?? (arg instanceof EventNode ? (await vscode.window.showQuickPick(['New webhook-id', 'Same webhook-id (tests duplicate handling)'], { title: 'Replay with' }))?.startsWith('Same') : false);
  if (keep === undefined) return undefined;
  const target = (arg as { target?: 'listener' | 'forward' } | undefined)?.target === 'forward' ? vscode.workspace.getConfiguration('aoaiWorkbench').get<string>('webhooks.forwardTo') : s.listener.state ? `${s.listener.state.localUrl}/webhook` : undefined;
  if (!target) throw new Error('Nothing to replay to: start listening, or set "aoaiWorkbench.webhooks.forwardTo".');
  const body = replayableBody(r);
  const headers = signedHeaders(secretFor(s, r), keep && r.webhookId ? r.webhookId : newWebhookId(), body);
  const res = await request(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, dispatcher: webhookDispatcher });
  await res.body.dump();
  s.listener.output.info(`Replayed ${r.eventType ?? 'delivery'} ${r.eventId ?? ''} to ${target}: ${res.statusCode}.`);
  return { status: res.statusCode };
}

async function copyAsCurl(s: Services, arg: unknown) {
  const r = recordOf(s, arg);
  const url = s.listener.state ? `${s.listener.state.publicUrl}/webhook` : 'http://127.0.0.1:PORT/webhook';
  const body = replayableBody(r);
  const headers = { 'content-type': 'application/json', ...signedHeaders(secretFor(s, r), newWebhookId(), body) };
  const curl = [`curl -X POST ${shellQuote(url)}`, ...Object.entries(headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`), `--data-raw ${shellQuote(body)}`].join(' \\\n  ');
  await vscode.env.clipboard.writeText(curl);
  void vscode.window.setStatusBarMessage('Copied as curl (signed with a fresh timestamp, valid for 5 minutes).', 4000);
  return curl;
}

async function fetchResponse(s: Services, arg: unknown) {
  const r = recordOf(s, arg);
  const id = (() => {
    try {
      return (JSON.parse(r.body) as { data?: { id?: string } }).data?.id;
    } catch {
      return undefined;
    }
  })();
  if (!r.eventType?.startsWith('response.') || !id) throw new Error('Only response.* events name a response to fetch.');
  const conn = s.listener.state?.connection ?? (await resolveConnection(s, undefined, 'Fetch the response with the credentials of'));
  if (!conn) return undefined;
  const client = await s.clients.get(conn);
  const response = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Fetching ${id}…` }, () => client.getResponse(id));
  if (!(arg as { quiet?: boolean } | undefined)?.quiet) {
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(response, null, 2) });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
  return response;
}

async function filterEvents(s: Services, tree: EventsTree, arg: unknown): Promise<EventFilter> {
  let filter = arg as EventFilter | undefined;
  if (!filter || typeof filter !== 'object') {
    const types = [...new Set(s.listener.events.list().map((r) => r.eventType).filter((t): t is string => !!t))];
    type Pick = vscode.QuickPickItem & { group: 'verdict' | 'type' };
    const items: Pick[] = [
      ...(['verified', 'duplicate', 'rejected', 'malformed'] as const).map((v) => ({ label: v, group: 'verdict' as const, picked: !!tree.filter.verdicts?.includes(v) })),
      ...types.map((t) => ({ label: t, group: 'type' as const, picked: !!tree.filter.types?.includes(t) })),
    ];
    const picks = await vscode.window.showQuickPick(items, { title: 'Show only (nothing picked: show all)', canPickMany: true });
    if (!picks) return tree.filter;
    filter = { verdicts: picks.filter((p) => p.group === 'verdict').map((p) => p.label as never), types: picks.filter((p) => p.group === 'type').map((p) => p.label) };
  }
  tree.setFilter(filter);
  return filter;
}

async function listenerActions(s: Services) {
  const state = s.listener.state;
  if (!state) return;
  const pick = await vscode.window.showQuickPick(['Copy public URL', 'Send test event', 'Show webhook log', 'Stop listening'], { title: `Listening at ${state.publicUrl}` });
  if (pick === 'Copy public URL') await vscode.env.clipboard.writeText(state.publicUrl);
  if (pick === 'Send test event') await vscode.commands.executeCommand('aoai-workbench.sendTestEvent');
  if (pick === 'Show webhook log') s.listener.output.show();
  if (pick === 'Stop listening') await vscode.commands.executeCommand('aoai-workbench.stopListening');
}

/** Received payloads open as read-only JSON documents. */
export function eventDocuments(s: Services): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(EVENT_SCHEME, {
    provideTextDocumentContent: (uri) => {
      const r = s.listener.events.get(uri.path.replace(/^\//, '').replace(/\.json$/, ''));
      return r ? prettyBody(r.body) : 'This event is no longer stored.';
    },
  });
}

export function registerListenerCommands(s: Services, tree: EventsTree): vscode.Disposable[] {
  return [
    eventDocuments(s),
    command('startListening', 'Could not start listening', (arg) => startListening(s, arg)),
    command('stopListening', 'Could not stop listening', (arg) => stopListening(s, arg)),
    command('chooseTunnel', 'Could not change the tunnel', () => chooseTunnelProvider(vscode.workspace.getConfiguration('aoaiWorkbench').get<ProviderChoice>('tunnel.provider', 'localtunnel'))),
    command('downloadCloudflared', 'Could not download cloudflared', async () => (await downloadCloudflaredWithProgress(s)).path),
    command('deleteCloudflared', 'Could not delete the downloaded cloudflared', () => deleteDownloadedCloudflared(s)),
    command('sendTestEvent', 'Could not send the test event', (arg) => sendTestEvent(s, arg)),
    command('listenerActions', 'Could not show the listener actions', () => listenerActions(s)),
    command('openEventPayload', 'Could not open the payload', async (arg) => {
      const r = recordOf(s, arg);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: EVENT_SCHEME, path: `/${r.id}.json` }));
      await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { preview: true });
      return doc.getText();
    }),
    command('copyEventAsCurl', 'Could not copy the event as curl', (arg) => copyAsCurl(s, arg)),
    command('replayEvent', 'Could not replay the event', (arg) => replay(s, arg)),
    command('fetchEventResponse', 'Could not fetch the response', (arg) => fetchResponse(s, arg)),
    command('filterEvents', 'Could not filter the events', (arg) => filterEvents(s, tree, arg)),
    command('clearEvents', 'Could not clear the events', async (arg) => {
      // Scripts pass { confirm: false }; from the UI, ask first.
      if ((arg as { confirm?: boolean } | undefined)?.confirm !== false) {
        const ok = await vscode.window.showWarningMessage('Clear every received webhook event?', { modal: true }, 'Clear');
        if (ok !== 'Clear') return false;
      }
      await s.listener.clear();
      logInfo('Cleared the received webhook events.');
      return true;
    }),
  ];
}
