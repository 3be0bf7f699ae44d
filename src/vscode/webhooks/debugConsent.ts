/**
 * Before a launch configuration (possibly a repository's) acts on the user's resource: it may
 * forward only to this machine unless the user's own setting allows more, and the user says yes
 * once per configuration (remembered by a hash of what it does). After a crash or a reload, an
 * endpoint a debug session left pointing at a listener that is gone is offered back.
 */
import * as vscode from 'vscode';
import { DEBUG_CONSENTS_KEY, debugConsentKey, debugConsentText, forwardRefusal, pickConnection, type WebhookDebugConfig } from '../../webhooks/session/debugConfig';
import { logError, logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { setting } from '../settings';

const MAX_CONSENTS = 100;

/** True: go ahead. A string: why not. False: the user said no. */
export async function confirmDebugConfig(s: Services, c: WebhookDebugConfig): Promise<true | false | string> {
  const refused = forwardRefusal(c, setting('webhooks.debugForwardToAnyHost'));
  if (refused) return refused;
  const conn = pickConnection(s.store.list(), c.connection);
  // No connection to act on: the launch says what is wrong, and nothing happens.
  if (typeof conn === 'string') return true;
  const state = s.context.globalState;
  const agreed = state.get<string[]>(DEBUG_CONSENTS_KEY) ?? [];
  const key = debugConsentKey(c, conn.id);
  if (agreed.includes(key)) return true;
  const running = s.listener.state;
  const tunnel = running
    ? running.provider !== 'none' && vscode.l10n.t('{0} tunnel', running.provider)
    : s.listener.providerFor(conn, c.tunnel ?? setting('tunnel.provider'), c.tunnel !== undefined)?.label;
  const { message, detail } = debugConsentText(c, conn.label, tunnel || undefined);
  const start = vscode.l10n.t('Start Debugging');
  const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, start);
  if (pick !== start) return false;
  await state.update(DEBUG_CONSENTS_KEY, [...agreed.filter((k) => k !== key), key].slice(-MAX_CONSENTS));
  return true;
}

/** Offers to put back each endpoint URL a debug session of a window that is gone left changed. */
export async function offerOriginalUrls(s: Services): Promise<void> {
  for (const k of s.listener.originalUrls.orphans()) {
    const conn = s.store.get(k.connectionId);
    if (!conn) {
      await s.listener.originalUrls.forget(k.connectionId, k.endpointId);
      continue;
    }
    const putBack = vscode.l10n.t('Put It Back');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Webhook endpoint {0} of "{1}" still points at the listener of a debug session that ended with its window. Put its URL back to {2}?',
        plainLine(k.endpointId),
        conn.label,
        plainLine(k.url, 300),
      ),
      putBack,
      vscode.l10n.t('Leave It'),
    );
    if (pick === putBack) {
      try {
        await s.endpoints.update(conn, k.endpointId, { url: k.url });
        logInfo(`Put webhook endpoint ${k.endpointId} back to ${k.url}.`);
      } catch (err) {
        logError(`Could not put webhook endpoint ${k.endpointId} back to ${k.url}: ${(err as Error).message}`);
        const why = plainLine((err as Error).message, 400);
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not put webhook endpoint {0} back: {1} Edit its URL in the sidebar.', plainLine(k.endpointId), why));
        continue;
      }
    }
    // Dismissed: asked again in the next window.
    if (pick) await s.listener.originalUrls.forget(k.connectionId, k.endpointId);
  }
}
