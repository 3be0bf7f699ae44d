/**
 * The Webhook Events view's status line (a view message wraps, so a long tunnel URL is never cut
 * off) and, after a reload cut a listening session off, the offer to listen again.
 */
import * as vscode from 'vscode';
import { Commands } from '../contributions';
import { plainLine } from '../plainText';
import type { WebhookEvents } from '../../webhooks/store/webhookEvents';
import type { ListenerController } from './listenerController';
import { tunnelViewMessage } from './tunnelHealth';

/** What the view says above its rows: where it listens, or that new deliveries are not received. */
export function eventsViewMessage(listener: ListenerController, events: WebhookEvents): string | undefined {
  const state = listener.state;
  if (state) return tunnelViewMessage(state.tunnel) ?? vscode.l10n.t('Listening at {0} for "{1}".', `${state.publicUrl}/webhook`, state.connection.label);
  const last = listener.interrupted;
  if (last) return vscode.l10n.t('Not listening since the window reloaded: new deliveries for "{0}" are not received.', last.connectionLabel);
  return events.size ? vscode.l10n.t('Not listening: new deliveries are not received.') : undefined;
}

/**
 * Keeps the view's message current, and offers once per window to listen again. The extension
 * activates only when the user opens one of its views or panels, runs one of its commands or
 * starts its debug type, so the offer comes when the user is at work with webhooks or chat.
 */
export function showEventsViewStatus(view: vscode.TreeView<unknown>, listener: ListenerController, events: WebhookEvents): vscode.Disposable {
  let offered = false;
  const offer = async () => {
    const last = listener.interrupted;
    if (offered || !last) return;
    offered = true;
    const question = last.endpointId
      ? vscode.l10n.t(
          'Webhook listening for "{0}" stopped when the window reloaded. Listen again and point endpoint {1} at its new URL?',
          last.connectionLabel,
          plainLine(last.endpointId),
        )
      : vscode.l10n.t('Webhook listening for "{0}" stopped when the window reloaded. Listen again?', last.connectionLabel);
    const [again, notNow] = [vscode.l10n.t('Listen Again'), vscode.l10n.t('Not Now')];
    const pick = await vscode.window.showInformationMessage(question, again, notNow);
    if (pick === again) await vscode.commands.executeCommand(Commands.resumeListening);
    else if (pick === notNow) await listener.forgetInterrupted();
  };
  const update = () => {
    view.message = eventsViewMessage(listener, events);
    void offer();
  };
  void events.ready().then(update);
  // Listening started or stopped, or the first delivery arrived or the events were cleared (the message says whether any are kept).
  const first = () => events.size === 1 && update();
  return vscode.Disposable.from(listener.onDidChange(update), events.onDidArrive(first), events.onDidReset(update));
}
