/**
 * The one message protocol between the delivery inspector (a webview) and the extension. Both
 * sides import this file and validate everything they receive with it: a message that does not
 * parse is dropped. Everything a delivery carries is sender-controlled text, shown as text only;
 * no secret is ever in a message (endpoints appear by name and the service's hint).
 */
import { isObj, isText } from '../../service/shapes';
import type { SipParty } from './sipParty';
// No imports: the page (a browser) type-checks this file without Node's types.

/** As in records.ts (the host side checks that the two agree where it builds a view). */
export type VerdictName = 'verified' | 'duplicate' | 'rejected' | 'malformed';

export interface HeaderView {
  name: string;
  value: string;
}

/** The app's answer to a forward or a replay. */
export interface AnswerView {
  kind: 'forward' | 'replay';
  edited: boolean;
  /** Sent from a fixture file rather than replayed from the inspector. */
  fixture?: boolean;
  url: string;
  /** The per-event route that chose the URL (`batch.*`); absent: the forward URL. */
  route?: string;
  at?: number;
  webhookId?: string;
  status?: number;
  /** The connection error, in words, when there was no answer. */
  error?: string;
  /** 2xx. */
  ok: boolean;
  durationMs: number;
  headers: HeaderView[];
  body: string;
  /** Says the body was cut, and at what size. */
  bodyNote?: string;
}

export interface TriedView {
  endpoint: string;
  hint: string;
  expected: string;
  matched: boolean;
}

export interface TraceView {
  toleranceSeconds: number;
  skewSeconds?: number;
  missingHeaders: string[];
  received: string[];
  tried: TriedView[];
  bodyBytes: number;
  bodySha256: string;
}

export interface DiagnosisView {
  /** One of doctor.ts's causes. */
  cause: string;
  title: string;
  advice: string;
  evidence: string[];
}

/** A `realtime.call.incoming` delivery's call: its SIP headers as the caller sent them (untrusted text). */
export interface CallView {
  callId: string;
  headers: HeaderView[];
  /** Who From and To name, read per RFC 3261 (sipParty.ts): the page shows the address apart from the name given. */
  from?: SipParty;
  to?: SipParty;
  /** Accept, Reject, Transfer and Hang Up are offered (a verified delivery only: anyone can post a forged one). */
  actionable: boolean;
}

export type CallAction = 'accept' | 'reject' | 'transfer' | 'hangup';
export const CALL_ACTIONS: readonly CallAction[] = ['accept', 'reject', 'transfer', 'hangup'];

/** What a verified batch.* or fine_tuning.job.* delivery is about, which the page opens. */
export interface SubjectView {
  kind: 'batch' | 'fineTuningJob';
  id: string;
}

export interface DeliveryView {
  id: string;
  title: string;
  verdict: VerdictName;
  reason?: string;
  /** The status the listener answered the sender. */
  status: number;
  receivedAt: number;
  method: string;
  path: string;
  headers: HeaderView[];
  body: string;
  /** Why the body shown is not the whole of it (unverified: a prefix only; or cut at the stored size). */
  bodyNote?: string;
  /** Replay and copy as curl are possible (a verified, whole body); else why not. */
  replayable: boolean;
  notReplayable?: string;
  /** Where a replay goes (the forward setting), when set. */
  appUrl?: string;
  /** A response.* event's response id, which can be fetched. */
  responseId?: string;
  /** A call event's call. */
  call?: CallView;
  /** A batch or fine-tuning event's batch or job. */
  subject?: SubjectView;
  trace?: TraceView;
  diagnoses: DiagnosisView[];
  /** The forward on arrival first, then replays, oldest first. */
  answers: AnswerView[];
}

/** Extension → webview. */
export type InspectorHostMessage =
  | { type: 'show'; delivery: DeliveryView }
  | { type: 'empty'; text: string }
  | { type: 'busy'; busy: boolean; text?: string }
  | { type: 'notice'; level: 'info' | 'error'; text: string };

/** Webview → extension. Each action names the delivery it was meant for. */
export type InspectorViewMessage =
  | { type: 'ready' }
  | { type: 'replay'; eventId: string; body?: string }
  | { type: 'copyCurl'; eventId: string; body?: string }
  | { type: 'openPayload'; eventId: string }
  /** Save as Fixture… (a verified delivery stored whole, as for replay). */
  | { type: 'saveFixture'; eventId: string }
  | { type: 'fetchResponse'; eventId: string }
  | { type: 'openConversation'; eventId: string }
  /** The trace this delivery is in (a background reply's wait it ended). */
  | { type: 'showTrace'; eventId: string }
  /** The delivery's call (the host reads its id from the stored delivery, not from the page). */
  | { type: 'callAction'; eventId: string; action: CallAction }
  /** Opens what the delivery is about: a batch's results, a fine-tuning job's page. */
  | { type: 'openSubject'; eventId: string };

/** The largest body an edited replay may send (the listener's own limit is 1 MiB). */
export const MAX_EDITED_BODY = 1024 * 1024;
const MAX_TEXT = 2 * 1024 * 1024;

const isStr = (v: unknown, max = MAX_TEXT): v is string => isText(v, max);
const optStr = (v: unknown, max = MAX_TEXT) => v === undefined || isStr(v, max);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optNum = (v: unknown) => v === undefined || isNum(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const arrayOf = <T>(v: unknown, ok: (x: unknown) => x is T, max = 1000): v is T[] => Array.isArray(v) && v.length <= max && v.every(ok);
const isId = (v: unknown): v is string => isStr(v, 200) && v.length > 0;

const VERDICTS = new Set(['verified', 'duplicate', 'rejected', 'malformed']);

const isHeader = (v: unknown): v is HeaderView => isObj(v) && isStr(v.name, 1000) && isStr(v.value, 10_000);
const isShort = (v: unknown): v is string => isStr(v, 10_000);

function isAnswer(v: unknown): v is AnswerView {
  return (
    isObj(v) && (v.kind === 'forward' || v.kind === 'replay') && isBool(v.edited) && (v.fixture === undefined || isBool(v.fixture)) && isStr(v.url, 10_000) && optStr(v.route, 1000) && optNum(v.at) &&
    optStr(v.webhookId, 1000) && optNum(v.status) && optStr(v.error, 10_000) && isBool(v.ok) && isNum(v.durationMs) &&
    arrayOf(v.headers, isHeader) && isStr(v.body) && optStr(v.bodyNote, 1000)
  );
}

function isTried(v: unknown): v is TriedView {
  return isObj(v) && isStr(v.endpoint, 1000) && isStr(v.hint, 100) && isStr(v.expected, 100) && isBool(v.matched);
}

function isTrace(v: unknown): v is TraceView {
  return (
    isObj(v) && isNum(v.toleranceSeconds) && optNum(v.skewSeconds) && arrayOf(v.missingHeaders, isShort) && arrayOf(v.received, isShort) &&
    arrayOf(v.tried, isTried) && isNum(v.bodyBytes) && isStr(v.bodySha256, 100)
  );
}

function isDiagnosis(v: unknown): v is DiagnosisView {
  return isObj(v) && isStr(v.cause, 100) && isStr(v.title, 10_000) && isStr(v.advice, 10_000) && arrayOf(v.evidence, isShort, 100);
}

const isParty = (v: unknown): v is SipParty =>
  isObj(v) && (v.parsed === true ? isStr(v.address, 10_000) && optStr(v.name, 10_000) && isStr(v.params, 10_000) : v.parsed === false && isStr(v.raw, 10_000));
const optParty = (v: unknown) => v === undefined || isParty(v);
const isCall = (v: unknown): v is CallView =>
  isObj(v) && isId(v.callId) && arrayOf(v.headers, isHeader, 100) && isBool(v.actionable) && optParty(v.from) && optParty(v.to);
const isSubject = (v: unknown): v is SubjectView => isObj(v) && (v.kind === 'batch' || v.kind === 'fineTuningJob') && isId(v.id);

export function isDeliveryView(v: unknown): v is DeliveryView {
  return (
    isObj(v) && isId(v.id) && isStr(v.title, 10_000) && typeof v.verdict === 'string' && VERDICTS.has(v.verdict) && optStr(v.reason, 10_000) &&
    isNum(v.status) && isNum(v.receivedAt) && isStr(v.method, 100) && isStr(v.path, 10_000) && arrayOf(v.headers, isHeader) && isStr(v.body) &&
    optStr(v.bodyNote, 1000) && isBool(v.replayable) && optStr(v.notReplayable, 1000) && optStr(v.appUrl, 10_000) && optStr(v.responseId, 1000) &&
    (v.trace === undefined || isTrace(v.trace)) && arrayOf(v.diagnoses, isDiagnosis, 100) && arrayOf(v.answers, isAnswer, 100) &&
    (v.call === undefined || isCall(v.call)) && (v.subject === undefined || isSubject(v.subject))
  );
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseInspectorHostMessage(v: unknown): InspectorHostMessage | undefined {
  // Stryker disable next-line ConditionalExpression: a type that is not a string matches no case below either.
  if (!isObj(v) || typeof v.type !== 'string') return undefined;
  switch (v.type) {
    case 'show':
      return isDeliveryView(v.delivery) ? { type: 'show', delivery: v.delivery } : undefined;
    case 'empty':
      return isStr(v.text, 10_000) ? { type: 'empty', text: v.text } : undefined;
    case 'busy':
      return isBool(v.busy) && optStr(v.text, 1000) ? { type: 'busy', busy: v.busy, ...(v.text !== undefined ? { text: v.text as string } : {}) } : undefined;
    case 'notice':
      return (v.level === 'info' || v.level === 'error') && isStr(v.text, 10_000) ? { type: 'notice', level: v.level, text: v.text } : undefined;
  }
  return undefined;
}

/** Validates a message from the webview. */
export function parseInspectorViewMessage(v: unknown): InspectorViewMessage | undefined {
  // Stryker disable next-line ConditionalExpression: a type that is not a string matches no case below either.
  if (!isObj(v) || typeof v.type !== 'string') return undefined;
  switch (v.type) {
    case 'ready':
      return { type: 'ready' };
    case 'replay':
    case 'copyCurl':
      if (!isId(v.eventId) || !optStr(v.body, MAX_EDITED_BODY)) return undefined;
      return v.body === undefined ? { type: v.type, eventId: v.eventId } : { type: v.type, eventId: v.eventId, body: v.body as string };
    case 'openPayload':
    case 'saveFixture':
    case 'fetchResponse':
    case 'openConversation':
    case 'showTrace':
    case 'openSubject':
      return isId(v.eventId) ? { type: v.type, eventId: v.eventId } : undefined;
    case 'callAction':
      return isId(v.eventId) && CALL_ACTIONS.includes(v.action as CallAction) ? { type: 'callAction', eventId: v.eventId, action: v.action as CallAction } : undefined;
  }
  return undefined;
}
