/** Start and stop listening for webhooks, the tunnel in front of the listener, cloudflared, test events. */
import * as vscode from 'vscode';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../../service/types';
import type { EndpointPlan } from '../../webhooks/session/listeningSession';
import type { Downloaded } from '../../tunnels/cloudflaredDownload';
import { loadNetwork } from '../bundles';
import type { VerifierReport } from '../../webhooks/send/verifierCheck';
import { Commands, type ProviderChoice } from '../contributions';
import { showError } from '../log';
import { plainLine } from '../plainText';
import { proxySettings } from '../proxySettings';
import type { Services } from '../services';
import { optionalSetting, setting } from '../settings';
import { owned, resolveConnection } from './args';
import { confirmed, withCancellableProgress, withProgress } from './registry';
import { chooseTunnelProvider } from './tunnelChoice';
import { isoDate } from '../../text/format';

export interface StartListeningArgs {
  connectionId: string;
  /** A tunnel named here is used even for a local service (which otherwise needs none). */
  provider?: ProviderChoice;
  /** What to do with an endpoint once listening (no prompt when given). */
  endpoint?: EndpointChoice;
  /** The answer to "download cloudflared?" when it is missing (no prompt when given). */
  downloadCloudflared?: boolean;
}

type EndpointChoice = EndpointPlan;

/** Asks what to point at the listener: a new endpoint, an existing one, or nothing. */
async function askEndpoint(publicUrl: string, endpoints: () => Promise<WebhookEndpoint[]>): Promise<EndpointChoice | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      // The URL as a detail line: it wraps there, where a title would cut a long tunnel URL off.
      { label: `$(add) ${vscode.l10n.t('Create a webhook endpoint')}`, detail: plainLine(`${publicUrl}/webhook`, 300), mode: 'create' as const },
      { label: `$(edit) ${vscode.l10n.t('Point an existing endpoint here')}`, description: vscode.l10n.t('updates its URL'), mode: 'update' as const },
      { label: vscode.l10n.t('Skip'), description: vscode.l10n.t('the endpoint is set up already'), mode: 'skip' as const },
    ],
    {
      title: vscode.l10n.t('Listening: point a webhook endpoint here?'),
      placeHolder: vscode.l10n.t('The service delivers only to endpoints that point at the listener'),
      ignoreFocusOut: true,
    },
  );
  if (!pick || pick.mode === 'skip') return undefined;
  if (pick.mode === 'create') {
    const items = WEBHOOK_EVENT_TYPES.map((t) => ({ label: t, picked: t.startsWith('response.') }));
    const types = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Events to receive'), canPickMany: true, ignoreFocusOut: true });
    if (!types?.length) return undefined;
    return { mode: 'create', name: vscode.l10n.t('VS Code listener ({0})', isoDate(Date.now())), eventTypes: types.map((t) => t.label) };
  }
  const all = await endpoints();
  const items = all.map((x) => ({ label: plainLine(x.name), description: plainLine(x.url, 300), endpoint: x }));
  const e = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Endpoint to point at the listener') });
  return e && { mode: 'update', endpointId: e.endpoint.id };
}

/** Points an endpoint at the listener; the endpoints' owner tells the listener and the tree. */
async function offerEndpoint(s: Services, args: EndpointChoice | undefined): Promise<string | undefined> {
  const state = s.listener.state!;
  const conn = state.connection;
  const url = `${state.publicUrl}/webhook`;
  const choice = args ?? (await askEndpoint(state.publicUrl, () => s.endpoints.all(conn)));
  if (!choice || choice.mode === 'skip') return undefined;
  const endpointId = await s.listener.pointUserEndpoint(choice);
  if (choice.mode === 'create') {
    s.listener.output.info(`Created webhook endpoint ${endpointId} → ${url}; its signing secret is in secret storage.`);
  } else {
    if (!s.listener.knownSecrets().some((k) => k.endpointId === endpointId)) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'That endpoint was not created here, so its signing secret is unknown and its deliveries will be rejected. Create a new endpoint to capture a secret.',
        ),
      );
    }
    s.listener.output.info(`Pointed webhook endpoint ${endpointId} at ${url}.`);
  }
  return endpointId;
}

export async function startListening(s: Services, arg: unknown) {
  const args = arg && typeof arg === 'object' && 'connectionId' in arg ? (arg as StartListeningArgs) : undefined;
  const conn = await resolveConnection(s, args, vscode.l10n.t('Start listening for webhooks'));
  if (!conn) return undefined;
  const provider = args?.provider ?? setting('tunnel.provider');
  const tunnel = s.listener.providerFor(conn, provider, args?.provider !== undefined);
  const check = await tunnel?.check();
  if (check && !check.ok) {
    // Only with the user's consent: nothing is fetched from the internet otherwise.
    const consent = check.canDownload && (args?.downloadCloudflared ?? (await askToDownloadCloudflared()));
    if (!consent) {
      if (args) throw new Error(check.message);
      // From the UI: say what is missing, and offer the way around it.
      void showError(vscode.l10n.t('Could not start listening'), new Error(check.message), vscode.l10n.t('Choose Another Tunnel')).then(async (action) => {
        if (action && (await chooseTunnelProvider(provider))) await vscode.commands.executeCommand(Commands.startListening, arg && typeof arg === 'object' ? owned(arg) : arg);
      });
      return undefined;
    }
    await downloadCloudflaredWithProgress(s);
  }
  const state = await withCancellableProgress(vscode.l10n.t('Starting the webhook listener…'), (signal, report) => {
    if (tunnel) report(vscode.l10n.t('opening the {0} tunnel…', tunnel.label));
    return s.listener.start(conn, tunnel, signal);
  });
  const endpointId = await offerEndpoint(s, args?.endpoint);
  if (!args) void vscode.window.showInformationMessage(vscode.l10n.t('Listening for webhooks at {0}. Deliveries show in the Webhook Events view.', plainLine(state.publicUrl, 300)));
  return { localUrl: state.localUrl, publicUrl: state.publicUrl, endpointId };
}

async function askToDownloadCloudflared(): Promise<boolean> {
  const { CLOUDFLARED_VERSION, cloudflaredDownloadUrl } = loadNetwork();
  const source = cloudflaredDownloadUrl(optionalSetting('tunnel.cloudflaredDownloadUrl'));
  const detail = [
    vscode.l10n.t("Download cloudflared {0} from {1} (about 40 MB, checked against its pinned SHA-256) into this extension's storage?", CLOUDFLARED_VERSION, source),
    vscode.l10n.t('It is used only for the webhook tunnel, and you can delete it with "Delete Downloaded cloudflared". Or install it yourself and put it on PATH.'),
  ].join(' ');
  return confirmed(vscode.l10n.t('Cloudflare quick tunnels need cloudflared, which is not installed.'), vscode.l10n.t('Download cloudflared'), detail);
}

/** Downloads cloudflared into global storage with a cancellable progress notification. */
export async function downloadCloudflaredWithProgress(s: Services): Promise<Downloaded> {
  const done = await withCancellableProgress(vscode.l10n.t('Downloading cloudflared'), (signal, report) => {
    let shown = 0;
    return loadNetwork().downloadCloudflared({
      storageDir: s.listener.storageDir,
      baseUrl: optionalSetting('tunnel.cloudflaredDownloadUrl'),
      proxy: proxySettings(),
      signal,
      onProgress: (received, total) => {
        if (!total) return report(vscode.l10n.t('{0} MB', (received / 1048576).toFixed(1)));
        const percent = Math.floor((received / total) * 100);
        if (percent > shown) report(vscode.l10n.t('{0}% of {1} MB', percent, (total / 1048576).toFixed(1)), percent - shown);
        shown = percent;
      },
    });
  });
  s.listener.output.info(`Downloaded cloudflared ${done.version} (${done.bytes} bytes, SHA-256 ${done.sha256}) to ${done.path}.`);
  return done;
}

export async function deleteDownloadedCloudflared(s: Services): Promise<boolean> {
  if (s.listener.state?.provider === 'cloudflared') throw new Error(vscode.l10n.t('The Cloudflare tunnel is running: stop listening first.'));
  const removed = await loadNetwork().removeDownloadedCloudflared(s.listener.storageDir);
  if (!removed) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No downloaded cloudflared to delete.'));
    return false;
  }
  s.listener.output.info(`Deleted the downloaded cloudflared (${removed}).`);
  return true;
}

/** Listens again for what a reload cut off: the same connection and tunnel, the same endpoint pointed at the new URL. */
export async function resumeListening(s: Services): Promise<unknown> {
  const last = s.listener.interrupted;
  if (!last) return undefined;
  if (!s.store.get(last.connectionId)) {
    await s.listener.forgetInterrupted();
    throw new Error(vscode.l10n.t('The connection "{0}" was removed: start listening for another one.', last.connectionLabel));
  }
  const endpoint: EndpointChoice = last.endpointId ? { mode: 'update', endpointId: last.endpointId, created: last.created } : { mode: 'skip' };
  return startListening(s, { connectionId: last.connectionId, provider: last.provider, endpoint } satisfies StartListeningArgs);
}

export async function stopListening(s: Services, arg: unknown): Promise<boolean> {
  const state = await s.listener.stop();
  if (!state) return false;
  let remove = (arg as { deleteEndpoint?: boolean } | undefined)?.deleteEndpoint;
  if (state.createdEndpointId && remove === undefined) {
    const del = vscode.l10n.t('Delete Endpoint');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t('Stopped listening. Delete the webhook endpoint that "Start Listening" created?'),
      del,
      vscode.l10n.t('Keep'),
    );
    remove = answer === del;
  }
  if (state.createdEndpointId && remove) await s.endpoints.delete(state.connection, state.createdEndpointId);
  return true;
}

/** Sends one test event to the listener: through the service's test route where it can, else signed here. */
export async function sendTestEvent(s: Services, arg: unknown) {
  const state = s.listener.state;
  if (!state) throw new Error(vscode.l10n.t('Start listening first.'));
  const type =
    (arg as { eventType?: string } | undefined)?.eventType ??
    (await vscode.window.showQuickPick([...WEBHOOK_EVENT_TYPES], { title: vscode.l10n.t('Send a test event of type'), ignoreFocusOut: true }));
  if (!type) return undefined;
  const client = await s.clients.get(state.connection).catch(() => undefined);
  // An endpoint aimed here whose secret is held, if any: the only one a test event is signed with.
  const known = s.listener.knownSecrets();
  const aimed = s.listener.endpointList.filter((e) => e.url === `${state.publicUrl}/webhook`);
  const here = aimed.find((e) => known.some((k) => k.endpointId === e.id)) ?? aimed[0];
  const { status, sentBy, note } = await loadNetwork().sendTestEvent({
    url: `${state.publicUrl}/webhook`,
    known,
    type,
    endpointId: here?.id,
    outbound: s.listener.outbound(),
    serviceTest: client && ((endpointId, t) => client.testWebhookEndpoint(endpointId, t)),
  });
  const how = sentBy === 'service' ? `by the service to endpoint ${here?.id}` : `signed here through ${state.publicUrl} (${note})`;
  s.listener.output.info(`Test event ${type} sent ${how}: the listener answered ${status}.`);
  return { status, sentBy };
}

export async function listenerActions(s: Services): Promise<void> {
  const state = s.listener.state;
  if (!state) return;
  const actions = [
    { label: vscode.l10n.t('Copy webhook URL'), detail: `${state.publicUrl}/webhook`, action: 'copy' },
    { label: vscode.l10n.t('Send test event'), action: 'test' },
    { label: vscode.l10n.t('Check my webhook verifier'), action: 'verifier' },
    { label: vscode.l10n.t('Check my handler'), action: 'handler' },
    { label: vscode.l10n.t('Show webhook log'), action: 'log' },
    { label: vscode.l10n.t('Stop listening'), action: 'stop' },
  ] as const;
  const pick = (await vscode.window.showQuickPick(actions, { title: vscode.l10n.t('Webhook listener for {0}', state.connection.label) }))?.action;
  if (pick === 'copy') await vscode.env.clipboard.writeText(`${state.publicUrl}/webhook`);
  if (pick === 'test') await vscode.commands.executeCommand(Commands.sendTestEvent);
  if (pick === 'verifier') await vscode.commands.executeCommand(Commands.checkVerifier);
  if (pick === 'handler') await vscode.commands.executeCommand(Commands.checkHandler);
  if (pick === 'log') s.listener.output.show();
  if (pick === 'stop') await vscode.commands.executeCommand(Commands.stopListening);
}

/**
 * Checks the user's app's verifier with a signed, a tampered and a stale test delivery, signed with
 * a secret held for the connection listened for (the app must hold the same one).
 */
export async function checkVerifier(s: Services, arg: unknown): Promise<VerifierReport | undefined> {
  const args = arg as { url?: string; endpointId?: string } | undefined;
  const known = s.listener.knownSecrets();
  if (!known.length) {
    throw new Error(vscode.l10n.t('No signing secret is held here: start listening for a connection with an endpoint created here, whose secret your app uses.'));
  }
  let secret = args?.endpointId ? known.find((k) => k.endpointId === args.endpointId) : known.length === 1 ? known[0] : undefined;
  if (!secret) {
    const pick = await vscode.window.showQuickPick(
      known.map((k) => ({ label: plainLine(k.label ?? k.endpointId), description: plainLine(k.endpointId), known: k })),
      { title: vscode.l10n.t('Check my webhook verifier: the endpoint whose secret the app uses') },
    );
    if (!pick) return undefined;
    secret = pick.known;
  }
  const url =
    args?.url ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t("Check my webhook verifier: the app's webhook URL"),
      value: s.listener.forwardTarget() ?? 'http://localhost:3000/webhook',
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v) ? undefined : vscode.l10n.t('An http(s) URL, e.g. {0}', 'http://localhost:3000/webhook')),
      ignoreFocusOut: true,
    }));
  if (!url) return undefined;
  const report = await withProgress(vscode.l10n.t('Checking the webhook verifier…'), () => loadNetwork().checkVerifier(url, secret.secret, Date.now(), s.listener.outbound()));
  for (const r of report.results) {
    s.listener.output.info(`Verifier check, ${r.probe} delivery (should ${r.expected}): ${r.answer.status ?? r.answer.error} → ${r.passed ? 'as expected' : 'WRONG'}`);
  }
  s.listener.output.info(`Verifier check of ${url}: ${report.summary}`);
  if (!args?.url) {
    const show = report.sound ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    // The summary quotes the app's answers: as text.
    void show(plainLine(report.summary, 1000), vscode.l10n.t('Show Log')).then((c) => c && s.listener.output.show());
  }
  return report;
}
