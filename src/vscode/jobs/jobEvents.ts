/**
 * Batches, fine-tuning jobs and calls follow their webhook deliveries: a verified `batch.*` or
 * `fine_tuning.job.*` delivery refreshes its row and says how it ended (with Open Results or
 * Deploy…); a verified `realtime.call.incoming` adds the call and rings with Accept / Reject /
 * Transfer. A delivery that failed verification never raises a notification; a burst of job
 * endings shows a few, then one summary (jobNotices.ts). Calls ring each: each one waits for an answer.
 */
import * as vscode from 'vscode';
import { callOf, subjectOf } from '../../webhooks/inspect/deliveryView';
import type { DeliveryRecord } from '../../webhooks/store/records';
import type { ConnectionInfo } from '../connections/connectionStore';
import { owned } from '../ownedArgs';
import { Commands } from '../contributions';
import { errorText, logError } from '../log';
import type { Services } from '../services';
import type { JobsTree } from '../tree/jobsTree';
import { plainLine } from '../plainText';
import { partyLine } from './callParty';

/**
 * Refreshes the row a delivery is about; on failure (a 404 when the delivery came from another
 * resource, the service down) the reason, so the notification still tells the user what happened.
 */
async function refreshFailure(s: Services, conn: ConnectionInfo, kind: 'batches' | 'fineTuning', id: string): Promise<string | undefined> {
  try {
    await s.jobs.refreshItem(conn, kind, id);
    return undefined;
  } catch (err) {
    logError(`Refreshing ${kind === 'batches' ? 'batch' : 'fine-tuning job'} ${id} after its delivery: ${errorText(err)}`);
    return errorText(err);
  }
}

export async function onJobDelivery(s: Services, r: DeliveryRecord): Promise<void> {
  const conn = s.listener.state?.connection;
  if (!conn || r.verdict !== 'verified') return;
  // The same reading of the event as the inspector's (one parser: the same limits on what a sender controls).
  const subject = subjectOf(r);
  const call = subject ? undefined : callOf(r);
  // `batch.completed`, `fine_tuning.job.succeeded`: how it ended is the type's last word. The
  // delivery's words (type, id) and the service's error are shown as text (plainText.ts).
  const ending = r.eventType?.split('.').at(-1) ?? '';
  const shownEnding = plainLine(ending, 40);
  if (subject?.kind === 'batch') {
    const id = subject.id;
    const shownId = plainLine(id);
    const failure = await refreshFailure(s, conn, 'batches', id);
    const action = ending === 'failed' || failure ? undefined : vscode.l10n.t('Open Results');
    const message = failure
      ? vscode.l10n.t('Batch {0} {1}, but loading it from "{2}" failed: {3}', shownId, shownEnding, conn.label, plainLine(failure))
      : vscode.l10n.t('Batch {0} {1}.', shownId, shownEnding);
    const pick = await s.jobNotices.notify('batches', conn.id, message, action ? [action] : []);
    if (action && pick === action) await vscode.commands.executeCommand(Commands.openBatchResults, { connectionId: conn.id, batchId: id });
  } else if (subject?.kind === 'fineTuningJob') {
    const id = subject.id;
    const shownId = plainLine(id);
    const failure = await refreshFailure(s, conn, 'fineTuning', id);
    const deploy = vscode.l10n.t('Deploy…');
    const message = failure
      ? vscode.l10n.t('Fine-tuning job {0} {1}, but loading it from "{2}" failed: {3}', shownId, shownEnding, conn.label, plainLine(failure))
      : vscode.l10n.t('Fine-tuning job {0} {1}.', shownId, shownEnding);
    const pick = await s.jobNotices.notify('fineTuning', conn.id, message, ending === 'succeeded' && !failure ? [deploy] : []);
    if (pick === deploy) await vscode.commands.executeCommand(Commands.deployFineTunedModel, owned({ connectionId: conn.id, jobId: id }));
  } else if (call) {
    const { headers, callId, from, to } = call;
    s.jobs.setCall(conn.id, { id: callId, from, to, state: 'ringing', at: Date.now(), headers });
    // The caller writes From and To: each is shown as text, its address apart from the name it gives.
    const caller = from ? partyLine(from) : vscode.l10n.t('an unknown caller');
    const ringing = to ? vscode.l10n.t('Incoming call from {0} to {1}.', caller, partyLine(to)) : vscode.l10n.t('Incoming call from {0}.', caller);
    const [accept, reject, transfer] = [vscode.l10n.t('Accept…'), vscode.l10n.t('Reject'), vscode.l10n.t('Transfer…')];
    const pick = await s.jobNotices.ring(ringing, [accept, reject, transfer]);
    const command = pick === accept ? Commands.acceptCall : pick === reject ? Commands.rejectCall : pick === transfer ? Commands.transferCall : undefined;
    if (command) await vscode.commands.executeCommand(command, owned({ connectionId: conn.id, callId, ...(pick === reject ? { statusCode: 603 } : {}) }));
  }
}

/**
 * Follows the listener's new records (the events' owner tells of each once; a reload's reloaded
 * records are not new), and keeps the Calls group in step with listening.
 */
export function watchJobEvents(s: Services, tree: JobsTree): vscode.Disposable {
  let running = s.listener.running;
  const recorded = s.events.onDidArrive((row) => {
    // A batch's, a fine-tuning job's or a call's (see deliveryView.ts): the others are not decoded.
    if (row.verdict !== 'verified' || !/^(batch\.|fine_tuning\.job\.|realtime\.call\.incoming)/.test(row.eventType ?? 'batch.')) return;
    const r = row.record();
    void onJobDelivery(s, r).catch((err: unknown) => logError(`A ${r.eventType ?? 'webhook'} delivery: ${errorText(err)}`));
  });
  const changed = s.listener.onDidChange(() => {
    if (s.listener.running === running) return;
    running = s.listener.running;
    tree.listeningChanged();
  });
  return vscode.Disposable.from(changed, recorded);
}
