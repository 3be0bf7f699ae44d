/** Accept Call…, Reject Call…, Transfer Call… and Hang Up Call on calls that rang through the listener. */
import * as vscode from 'vscode';
import type { Deployment } from '../../service/types';
import type { CallState } from '../jobs/jobLists';
import { callTarget } from '../jobs/jobArgs';
import type { Services } from '../services';
import { setting } from '../settings';
import { argsOf } from './args';

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
  const done = { accept: 'accepted', reject: 'rejected', refer: 'transferred', hangup: 'hung up' }[action];
  if (known && !ALLOWED[action].includes(known.state)) throw new Error(`The call ${callId} is ${known.state}: it cannot be ${done} now.`);
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
    if (!realtime.length) throw new Error(`"${conn.label}" has no realtime deployment to answer with: deploy a gpt-realtime model first.`);
    deployment = realtime.length === 1 ? realtime[0]!.name : (await vscode.window.showQuickPick(realtime.map((d) => d.name), { title: 'Accept the call with which realtime deployment?' }));
  }
  if (!deployment) return false;
  const instructions = args.instructions ?? (await vscode.window.showInputBox({ title: 'Instructions for the session that answers', value: setting('calls.instructions') }));
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
        { label: 'Decline', description: '603: the callee does not want to talk', code: 603 },
        { label: 'Busy', description: '486: busy here, try later', code: 486 },
      ],
      { title: 'Reject the call' },
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
      title: 'Transfer the call to',
      placeHolder: 'tel:+15551234567 or sip:someone@example.com',
      validateInput: (v) => (/^(tel:|sips?:)/i.test(v.trim()) ? undefined : 'A tel: number or a sip: address.'),
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
