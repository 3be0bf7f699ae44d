/**
 * The control API of incoming SIP calls (`/openai/v1/realtime/calls/{call_id}/…`). None of these
 * is sent twice: a second accept or transfer of the same call is not the same as the first.
 */
import * as l10n from '@vscode/l10n';
import type { HttpClient } from './http';

export interface AcceptCall {
  /** A realtime deployment's name. */
  model: string;
  instructions: string;
  /** Anything else of the realtime session (audio, tools, …). */
  [key: string]: unknown;
}

/** SIP answers a rejected caller hears: 486 busy here, 603 decline (the service's default). */
export type RejectStatus = 486 | 603 | number;

/** Only `tel:` numbers and `sip:` addresses can be transferred to. */
export function checkTransferTarget(uri: string): string {
  const target = uri.trim();
  if (!/^(tel:\+?[0-9][0-9\-.() ]{1,30}|sips?:[^\s@]+@[^\s@]+)$/i.test(target)) {
    throw new Error(l10n.t('"{0}" is not a place to transfer a call to: use {1} or {2}.', target.slice(0, 100), 'tel:+15551234567', 'sip:someone@example.com'));
  }
  return target;
}

export class CallsApi {
  constructor(
    private readonly http: HttpClient,
    private readonly base: string,
  ) {}

  private async post(callId: string, action: string, body: unknown, signal?: AbortSignal): Promise<void> {
    const url = `${this.base}/realtime/calls/${encodeURIComponent(callId)}/${action}`;
    const res = await this.http.stream({ method: 'POST', url, body, signal, accept: 'application/json' });
    // The service may answer 200 with no body at all: nothing to read but the status.
    await res.body.dump();
  }

  accept(callId: string, session: AcceptCall, signal?: AbortSignal): Promise<void> {
    return this.post(callId, 'accept', { type: 'realtime', ...session }, signal);
  }

  reject(callId: string, statusCode: RejectStatus = 603, signal?: AbortSignal): Promise<void> {
    return this.post(callId, 'reject', { status_code: statusCode }, signal);
  }

  refer(callId: string, targetUri: string, signal?: AbortSignal): Promise<void> {
    return this.post(callId, 'refer', { target_uri: checkTransferTarget(targetUri) }, signal);
  }

  hangup(callId: string, signal?: AbortSignal): Promise<void> {
    return this.post(callId, 'hangup', undefined, signal);
  }
}
