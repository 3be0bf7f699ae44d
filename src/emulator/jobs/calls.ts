/**
 * Incoming SIP calls, as the emulator rings them: each call has the SIP headers of its INVITE and a
 * state (ringing → accepted | rejected | referred | ended). A call nobody answers ends by itself
 * after `calls.ringMs`; a call that is no longer up takes no more control requests.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorState } from '../state';
import { nowSeconds, randomId } from '../wire';
import type { CallState, SipHeader, Call } from '../stored';

export type { CallState, SipHeader, Call };

/** Headers the service strips before it shows an INVITE's headers. */
const PRIVATE_HEADERS = /^(authorization|proxy-authorization|www-authenticate|proxy-authenticate)$/i;
const MAX_KEPT = 500;

const addressOf = (uri: string) => (uri.includes('<') ? uri : `<${uri}>`);

export function ringCall(state: EmulatorState, from: string, to: string, extra: SipHeader[]): Call {
  const now = nowSeconds();
  const call: Call = {
    call_id: randomId('rtc_', 16),
    state: 'ringing',
    from,
    to,
    // INVITE order: From, To, Call-ID and the rest as the caller's trunk sent them.
    sip_headers: [
      { name: 'From', value: `${addressOf(from)};tag=${randomId('', 4)}` },
      { name: 'To', value: addressOf(to) },
      { name: 'Call-ID', value: `${randomUUID()}@emulator.invalid` },
      ...extra.filter((h) => !PRIVATE_HEADERS.test(h.name)),
    ],
    created_at: now,
    updated_at: now,
  };
  state.calls.set(call.call_id, call);
  for (const id of state.calls.keys()) {
    if (state.calls.size <= MAX_KEPT) break;
    state.calls.delete(id);
  }
  state.emit('realtime.call.incoming', { call_id: call.call_id, sip_headers: call.sip_headers });
  state.later(state.config.calls.ringMs, () => {
    if (call.state === 'ringing') moveCall(call, 'ended', { end_reason: 'no_answer' });
  });
  return call;
}

export function moveCall(call: Call, next: CallState, details: Partial<Call> = {}): void {
  Object.assign(call, details);
  call.state = next;
  call.updated_at = nowSeconds();
}

/** Whether the call is still up (ringing or talking) and so takes control requests. */
export const isLive = (call: Call) => call.state === 'ringing' || call.state === 'accepted';
