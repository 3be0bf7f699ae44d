/** What can be done with a received webhook event: open, fetch its response, replay, copy as curl, filter, clear. */
import * as vscode from 'vscode';
import { responseIdOf } from '../../webhooks/inspect/deliveryView';
import type { DeliveryView } from '../../webhooks/inspect/inspectorProtocol';
import type { DeliveryRecord } from '../../webhooks/store/records';
import { loadNetwork } from '../bundles';
import { logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { EventNode, type EventFilter } from '../webhooks/eventsTree';
import { VERDICTS, verdictName } from '../webhooks/eventTooltip';
import { prettyBody } from '../webhooks/deliveryLog';
import { resolveConnection } from './args';
import { confirmed, showJson, withProgress } from './registry';

export const EVENT_SCHEME = 'aoai-webhook-event';

function recordOf(s: Services, arg: unknown): DeliveryRecord {
  if (arg instanceof EventNode) return arg.record;
  const id = (arg as { eventId?: string } | undefined)?.eventId;
  const r = id ? s.events.get(id) : undefined;
  if (!r) throw new Error(vscode.l10n.t('Choose an event in the Webhook Events view.'));
  return r;
}

/** Received payloads open as read-only JSON documents. */
export function eventDocuments(s: Services): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(EVENT_SCHEME, {
    provideTextDocumentContent: (uri) => {
      const r = s.events.get(uri.path.replace(/^\//, '').replace(/\.json$/, ''));
      return r ? prettyBody(r.body) : vscode.l10n.t('This event is no longer stored.');
    },
  });
}

/** Opens the delivery inspector on an event (a row's click, its inline action, or `{ eventId }`). */
export function inspectEvent(s: Services, arg: unknown): DeliveryView | undefined {
  const r = recordOf(s, arg);
  return s.inspector.open(r.id, (arg as { preserveFocus?: boolean } | undefined)?.preserveFocus);
}

export async function openEventPayload(s: Services, arg: unknown): Promise<string> {
  const r = recordOf(s, arg);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: EVENT_SCHEME, path: `/${r.id}.json` }));
  await vscode.languages.setTextDocumentLanguage(doc, 'json');
  await vscode.window.showTextDocument(doc, { preview: true });
  return doc.getText();
}

export async function replayEvent(s: Services, arg: unknown) {
  const r = recordOf(s, arg);
  const args = arg as { keepWebhookId?: boolean; target?: 'listener' | 'forward' } | undefined;
  let keep = args?.keepWebhookId;
  if (keep === undefined && arg instanceof EventNode) {
    const items = [
      { label: vscode.l10n.t('New webhook-id'), keep: false },
      { label: vscode.l10n.t('Same webhook-id (tests duplicate handling)'), keep: true },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Replay with') });
    if (!pick) return undefined;
    keep = pick.keep;
  }
  const listening = s.listener.state ? `${s.listener.state.localUrl}/webhook` : undefined;
  const target = args?.target === 'forward' ? s.listener.forwardTarget(r) : listening;
  if (!target) throw new Error(vscode.l10n.t('Nothing to replay to: start listening, or set "{0}".', 'aoaiWorkbench.webhooks.forwardTo'));
  const status = await loadNetwork().replay(r, s.listener.knownSecrets(), target, keep ?? false, s.listener.outbound());
  s.listener.output.info(`Replayed ${r.eventType ?? 'delivery'} ${r.eventId ?? ''} to ${target}: ${status}.`);
  return { status };
}

export async function copyEventAsCurl(s: Services, arg: unknown): Promise<string> {
  const r = recordOf(s, arg);
  const url = s.listener.state ? `${s.listener.state.publicUrl}/webhook` : 'http://127.0.0.1:PORT/webhook';
  const curl = loadNetwork().signedCurl(r, s.listener.knownSecrets(), url);
  await vscode.env.clipboard.writeText(curl);
  const copied =
    process.platform === 'win32'
      ? vscode.l10n.t('Copied as a PowerShell command, signed with a fresh timestamp: valid for 5 minutes.')
      : vscode.l10n.t('Copied as curl (for bash and other POSIX shells), signed with a fresh timestamp: valid for 5 minutes.');
  void vscode.window.setStatusBarMessage(copied, 4000);
  return curl;
}

export async function fetchEventResponse(s: Services, arg: unknown) {
  const r = recordOf(s, arg);
  const id = responseIdOf(r);
  if (!r.eventType?.startsWith('response.') || !id) throw new Error(vscode.l10n.t('Only response.* events name a response to fetch.'));
  const conn = s.listener.state?.connection ?? (await resolveConnection(s, undefined, vscode.l10n.t('Fetch the response with the credentials of')));
  if (!conn) return undefined;
  const client = await s.clients.get(conn);
  const response = await withProgress(vscode.l10n.t('Fetching {0}…', id), () => client.getResponse(id));
  if (!(arg as { quiet?: boolean } | undefined)?.quiet) {
    await showJson(response);
  }
  return response;
}

/** Opens the chat conversation whose reply the event's response is: a background reply, usually. */
export async function openEventConversation(s: Services, arg: unknown) {
  const r = recordOf(s, arg);
  const id = responseIdOf(r);
  if (!r.eventType?.startsWith('response.') || !id) throw new Error(vscode.l10n.t('Only response.* events name a response, and so a conversation.'));
  const panel = await s.chat.openWithResponse(id);
  if (!panel) {
    const none = vscode.l10n.t('No saved conversation here holds the response {0}: another app or window may have created it, or its conversation was deleted.', id);
    throw new Error(`${none} ${vscode.l10n.t('Fetch Response shows it.')}`);
  }
  return { conversationId: panel.conversation.id };
}

export async function filterEvents(s: Services, arg: unknown): Promise<EventFilter> {
  const tree = s.eventsTree;
  let filter = arg as EventFilter | undefined;
  if (!filter || typeof filter !== 'object') {
    const types = [...new Set(s.events.summaries().map((r) => r.eventType).filter((t): t is string => !!t))];
    type Pick = vscode.QuickPickItem & { value: string; group: 'verdict' | 'type' };
    const items: Pick[] = [
      ...VERDICTS.map((v) => ({ label: verdictName(v), value: v, group: 'verdict' as const, picked: !!tree.filter.verdicts?.includes(v) })),
      // A type is whatever a delivery said it was: as text.
      ...types.map((t) => ({ label: plainLine(t), value: t, group: 'type' as const, picked: !!tree.filter.types?.includes(t) })),
    ];
    const picks = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Show only (nothing picked: show all)'), canPickMany: true });
    if (!picks) return tree.filter;
    filter = { verdicts: picks.filter((p) => p.group === 'verdict').map((p) => p.value as never), types: picks.filter((p) => p.group === 'type').map((p) => p.value) };
  }
  tree.setFilter(filter);
  return filter;
}

export async function clearEvents(s: Services, arg: unknown): Promise<boolean> {
  // Scripts pass { confirm: false }; from the UI, ask first.
  const asked = (arg as { confirm?: boolean } | undefined)?.confirm !== false;
  if (asked && !(await confirmed(vscode.l10n.t('Clear every received webhook event?'), vscode.l10n.t('Clear')))) return false;
  await s.events.clear();
  logInfo('Cleared the received webhook events.');
  return true;
}
