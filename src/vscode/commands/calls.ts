/** Accept Call…, Reject Call…, Transfer Call… and Hang Up Call on calls that rang through the listener. */
import * as vscode from 'vscode';
import type { Deployment } from '../../service/types';
import type { CallState } from '../jobs/jobLists';
import { callTarget } from '../jobs/jobArgs';
import type { Services } from '../services';
import { setting } from '../settings';
import { argsOf } from './args';
import { plainLine } from '../plainText';

export interface AcceptCallArgs {
  connectionId?: string;
  callId: string;
  /** A realtime deployment. */
  deployment?: string;
  instructions?: string;
}

const ALLOWED: Record<'accept' | 'reject' | 'refer' | 'hangup', CallState[]> = {
  accept: ['ringing'],
  reject: ['ringing'],
  refer: ['ringing', 'accepted'],
  hangup: ['accepted'],
};

function target(s: Services, arg: unknown, action: keyof typeof ALLOWED) {
  const { conn, callId } = callTarget(s, arg);
  const known = s.jobs.call(conn.id, callId);
  if (known && !ALLOWED[action].includes(known.state)) {
    const cannot = {
      accept: () => vscode.l10n.t('The call {0} is {1}: it cannot be accepted now.', callId, known.state),
      reject: () => vscode.l10n.t('The call {0} is {1}: it cannot be rejected now.', callId, known.state),
      refer: () => vscode.l10n.t('The call {0} is {1}: it cannot be transferred now.', callId, known.state),
      hangup: () => vscode.l10n.t('The call {0} is {1}: it cannot be hung up now.', callId, known.state),
    }[action];
    throw new Error(cannot());
  }
  return { conn, callId, known };
}

function moved(s: Services, connectionId: string, callId: string, state: CallState, known?: ReturnType<Services['jobs']['call']>) {
  s.jobs.setCall(connectionId, { ...(known ?? { id: callId, at: Date.now(), headers: [] }), state });
}

const isRealtime = (d: Deployment) => /realtime/i.test(`${d.model} ${d.name}`);

export async function acceptCall(s: Services, arg: unknown): Promise<boolean> {
  const { conn, callId, known } = target(s, arg, 'accept');
  const args = argsOf<AcceptCallArgs>(arg) ?? ({} as Partial<AcceptCallArgs>);
  let deployment = args.deployment;
  if (!deployment) {
    const realtime = (await s.clients.listDeployments(conn)).filter(isRealtime);
    if (!realtime.length) throw new Error(vscode.l10n.t('"{0}" has no realtime deployment to answer with: deploy a gpt-realtime model first.', conn.label));
    const title = vscode.l10n.t('Accept the call with which realtime deployment?');
    const items = realtime.map((d) => ({ label: plainLine(d.name), name: d.name }));
    deployment = realtime.length === 1 ? realtime[0]!.name : (await vscode.window.showQuickPick(items, { title }))?.name;
  }
  if (!deployment) return false;
  const instructions =
    args.instructions ?? (await vscode.window.showInputBox({ title: vscode.l10n.t('Instructions for the session that answers'), value: setting('calls.instructions') }));
  if (instructions === undefined) return false;
  await (await s.clients.get(conn)).jobs.calls.accept(callId, { model: deployment, instructions });
  moved(s, conn.id, callId, 'accepted', known);
  return true;
}

export async function rejectCall(s: Services, arg: unknown): Promise<boolean> {
  const { conn, callId, known } = target(s, arg, 'reject');
  let status = argsOf<{ statusCode?: number }>(arg)?.statusCode;
  if (status === undefined) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Decline'), description: vscode.l10n.t('603: the callee does not want to talk'), code: 603 },
        { label: vscode.l10n.t('Busy'), description: vscode.l10n.t('486: busy here, try later'), code: 486 },
      ],
      { title: vscode.l10n.t('Reject the call') },
    );
    status = pick?.code;
  }
  if (status === undefined) return false;
  await (await s.clients.get(conn)).jobs.calls.reject(callId, status);
  moved(s, conn.id, callId, 'rejected', known);
  return true;
}

export async function transferCall(s: Services, arg: unknown): Promise<boolean> {
  const { conn, callId, known } = target(s, arg, 'refer');
  const to =
    argsOf<{ targetUri?: string }>(arg)?.targetUri ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Transfer the call to'),
      placeHolder: vscode.l10n.t('{0} or {1}', 'tel:+15551234567', 'sip:someone@example.com'),
      validateInput: (v) => (/^(tel:|sips?:)/i.test(v.trim()) ? undefined : vscode.l10n.t('A tel: number or a sip: address.')),
    }));
  if (!to) return false;
  await (await s.clients.get(conn)).jobs.calls.refer(callId, to);
  moved(s, conn.id, callId, 'referred', known);
  return true;
}

export async function hangUpCall(s: Services, arg: unknown): Promise<boolean> {
  const { conn, callId, known } = target(s, arg, 'hangup');
  await (await s.clients.get(conn)).jobs.calls.hangup(callId);
  moved(s, conn.id, callId, 'ended', known);
  return true;
}
