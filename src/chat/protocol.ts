/**
 * The one message protocol between the chat webview and the extension. Both sides import this
 * file and validate everything they receive with it: a message that does not parse is dropped.
 * It carries no keys or tokens.
 */

import type { Usage } from '../service/types';

export type { Usage };

export type Route = 'v1' | 'deployment';

/** Chat Completions or the Responses API; unset: what the model's profile prefers. */
export type ChatApi = 'chat' | 'responses';
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';
const EFFORTS: readonly string[] = ['minimal', 'low', 'medium', 'high'];

export interface ChatParams {
  systemPrompt: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  route: Route;
  apiVersion?: string;
  api?: ChatApi;
  /** Reasoning models only. */
  reasoningEffort?: ReasoningEffort;
  /** Send replies in the background (Responses API): followed by id, cancellable, kept across reloads. */
  background?: boolean;
}

export interface ChatErrorInfo {
  message: string;
  kind: string;
  status?: number;
  code?: string;
  retryAfterMs?: number;
}

/** Context attached to a user message. */
export interface Attachment {
  id: string;
  kind: 'selection' | 'file' | 'image';
  /** What its chip shows: the file's name, with the lines of a selection. */
  name: string;
  /** A selection's or file's text. */
  text?: string;
  /** The editor's language id, for the fence. */
  language?: string;
  /** An image, as a data: URL. */
  dataUrl?: string;
}

/** An attachment as the composer shows it, before sending: no contents. */
export interface AttachmentChip {
  id: string;
  kind: Attachment['kind'];
  name: string;
  /** About what it adds to the prompt (for the context meter). */
  tokens?: number;
}

export interface ChatTurn {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  deployment?: string;
  model?: string;
  usage?: Usage;
  latencyMs?: number;
  finishReason?: string | null;
  error?: ChatErrorInfo;
  /** The reply was stopped by the user. */
  stopped?: boolean;
  /** `usage` was counted locally (the stream ended before the service's figures). */
  usageEstimated?: boolean;
  /** A user message's attached context. */
  attachments?: Attachment[];
  /** The API that answered. */
  api?: ChatApi;
  /** A reasoning model's summary of its thinking (Responses API), shown apart from the answer. */
  reasoningSummary?: string;
  /** The Responses API's id of this reply. */
  responseId?: string;
  /** What the engine changed to get an answer (a parameter dropped, the API switched). */
  notes?: string[];
  /** A background reply's status on the service (queued, in_progress, then final). */
  backgroundStatus?: BackgroundStatus;
}

export type BackgroundStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';
/** The statuses a background response ends in. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set<BackgroundStatus>(['completed', 'failed', 'cancelled', 'incomplete']);
const BACKGROUND_STATUSES: readonly string[] = ['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete'];

export interface DeploymentOption {
  connectionId: string;
  connectionLabel: string;
  deployment: string;
  model?: string;
  modelVersion?: string;
  /** The SKU where the listing tells it (Resource Manager does; the data plane lists a scale type instead). */
  sku?: string;
}

export interface ConversationView {
  id: string;
  title: string;
  connectionId: string;
  connectionLabel: string;
  deployment: string;
  params: ChatParams;
  turns: ChatTurn[];
}

/** Extension → webview. */
export type HostMessage =
  | { type: 'init'; conversation: ConversationView; deployments: DeploymentOption[]; busy: boolean }
  | { type: 'conversation'; conversation: ConversationView }
  | { type: 'deployments'; deployments: DeploymentOption[] }
  | { type: 'turnStarted'; turn: ChatTurn }
  | { type: 'delta'; turnId: string; text: string }
  | { type: 'reasoningDelta'; turnId: string; text: string }
  | { type: 'backgroundStatus'; turnId: string; status: BackgroundStatus; elapsedSeconds: number }
  | { type: 'turnFinished'; turn: ChatTurn }
  | { type: 'retryCountdown'; turnId: string; seconds: number }
  /** After a failed request: the user's message back in the box, to edit and send again in place of `turnId`. */
  | { type: 'restoreDraft'; text: string; turnId?: string }
  /** What the next message will carry; `imageInput`: whether this deployment's model takes images. */
  | { type: 'attachments'; items: AttachmentChip[]; imageInput: boolean };

/** Webview → extension. */
export type ViewMessage =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'regenerate' }
  | { type: 'editLast'; text: string }
  | { type: 'setDeployment'; connectionId: string; deployment: string }
  | { type: 'setParams'; params: Partial<ChatParams> }
  | { type: 'copyCode'; code: string }
  | { type: 'insertCode'; code: string }
  | { type: 'openLink'; href: string }
  | { type: 'export'; format: 'markdown' | 'json' }
  | { type: 'clear' }
  /** Sends `text` in place of the user's message `turnId`: the turns from there on are replaced. */
  | { type: 'editFrom'; turnId: string; text: string }
  /** Copies a message's text (a reply as its Markdown source). */
  | { type: 'copyTurn'; turnId: string }
  | { type: 'attach'; kind: Attachment['kind'] }
  | { type: 'removeAttachment'; id: string };

const MAX_TEXT = 1_000_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
// Number.isFinite takes no string for a number.
const isNum = (v: unknown): v is number => Number.isFinite(v);
const optNum = (v: unknown, min: number, max: number) => v === undefined || (isNum(v) && v >= min && v <= max);

/** Checks and copies the parameters a webview may change (unknown keys are dropped). */
export function parseParams(v: unknown): Partial<ChatParams> | undefined {
  if (!isObj(v)) return undefined;
  const out: Partial<ChatParams> = {};
  if (v.systemPrompt !== undefined) {
    if (!isStr(v.systemPrompt, 100_000)) return undefined;
    out.systemPrompt = v.systemPrompt;
  }
  for (const [key, min, max] of [['temperature', 0, 2], ['topP', 0, 1], ['maxTokens', 1, 1_000_000]] as const) {
    if (v[key] === null) {
      out[key] = undefined;
      continue;
    }
    if (!optNum(v[key], min, max)) return undefined;
    if (v[key] !== undefined) out[key] = key === 'maxTokens' ? Math.round(v[key] as number) : (v[key] as number);
  }
  if (v.route !== undefined) {
    if (v.route !== 'v1' && v.route !== 'deployment') return undefined;
    out.route = v.route;
  }
  if (v.api !== undefined) {
    if (v.api !== null && v.api !== 'chat' && v.api !== 'responses') return undefined;
    out.api = v.api ?? undefined;
  }
  if (v.reasoningEffort !== undefined) {
    if (v.reasoningEffort !== null && !EFFORTS.includes(v.reasoningEffort as string)) return undefined;
    out.reasoningEffort = (v.reasoningEffort as ReasoningEffort | null) ?? undefined;
  }
  if (v.background !== undefined) {
    if (v.background !== null && typeof v.background !== 'boolean') return undefined;
    out.background = v.background === true ? true : undefined;
  }
  if (v.apiVersion !== undefined) {
    if (!isStr(v.apiVersion, 64) || !/^[\w.-]*$/.test(v.apiVersion)) return undefined;
    out.apiVersion = v.apiVersion || undefined;
  }
  return out;
}

/** Validates a message from the webview. */
export function parseViewMessage(v: unknown): ViewMessage | undefined {
  // A type that is not a string matches no case.
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'ready':
    case 'stop':
    case 'regenerate':
    case 'clear':
      return { type: v.type };
    case 'send':
    case 'editLast':
      return isStr(v.text) && v.text.trim() ? { type: v.type, text: v.text } : undefined;
    case 'copyCode':
    case 'insertCode':
      return isStr(v.code) ? { type: v.type, code: v.code } : undefined;
    case 'openLink':
      return isStr(v.href, 8192) ? { type: 'openLink', href: v.href } : undefined;
    case 'export':
      return v.format === 'markdown' || v.format === 'json' ? { type: 'export', format: v.format } : undefined;
    case 'setDeployment':
      return isStr(v.connectionId, 200) && isStr(v.deployment, 200) && v.deployment ? { type: 'setDeployment', connectionId: v.connectionId, deployment: v.deployment } : undefined;
    case 'setParams': {
      const params = parseParams(v.params);
      return params ? { type: 'setParams', params } : undefined;
    }
    case 'copyTurn':
      return isStr(v.turnId, 200) ? { type: 'copyTurn', turnId: v.turnId } : undefined;
    case 'attach':
      return v.kind === 'selection' || v.kind === 'file' || v.kind === 'image' ? { type: 'attach', kind: v.kind } : undefined;
    case 'removeAttachment':
      return isStr(v.id, 200) ? { type: 'removeAttachment', id: v.id } : undefined;
    case 'editFrom':
      return isStr(v.turnId, 200) && isStr(v.text) && v.text.trim() ? { type: 'editFrom', turnId: v.turnId, text: v.text } : undefined;
  }
  return undefined;
}

/** The optional fields a turn may carry, each of its type when present. */
function optionalTurnFields(v: Obj): boolean {
  return (
    (v.api === undefined || v.api === 'chat' || v.api === 'responses') &&
    (v.reasoningSummary === undefined || isStr(v.reasoningSummary)) &&
    (v.responseId === undefined || isStr(v.responseId, 200)) &&
    (v.notes === undefined || (Array.isArray(v.notes) && v.notes.length <= 20 && v.notes.every((n) => isStr(n, 1000)))) &&
    (v.backgroundStatus === undefined || BACKGROUND_STATUSES.includes(v.backgroundStatus as string))
  );
}

function isTurn(v: unknown): v is ChatTurn {
  return isObj(v) && isStr(v.id, 200) && (v.role === 'user' || v.role === 'assistant') && isStr(v.content) && isNum(v.createdAt) && optionalTurnFields(v);
}

function isConversation(v: unknown): v is ConversationView {
  return isObj(v) && isStr(v.id, 200) && isStr(v.title, 1000) && isStr(v.deployment, 200) && isObj(v.params) && Array.isArray(v.turns) && v.turns.every(isTurn);
}

function isDeployments(v: unknown): v is DeploymentOption[] {
  return Array.isArray(v) && v.every((d) => isObj(d) && isStr(d.connectionId, 200) && isStr(d.deployment, 200));
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseHostMessage(v: unknown): HostMessage | undefined {
  // A type that is not a string matches no case.
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'init':
      return isConversation(v.conversation) && isDeployments(v.deployments) ? { type: 'init', conversation: v.conversation, deployments: v.deployments, busy: v.busy === true } : undefined;
    case 'conversation':
      return isConversation(v.conversation) ? { type: 'conversation', conversation: v.conversation } : undefined;
    case 'deployments':
      return isDeployments(v.deployments) ? { type: 'deployments', deployments: v.deployments } : undefined;
    case 'turnStarted':
    case 'turnFinished':
      return isTurn(v.turn) ? { type: v.type, turn: v.turn } : undefined;
    case 'delta':
    case 'reasoningDelta':
      return isStr(v.turnId, 200) && isStr(v.text) ? { type: v.type, turnId: v.turnId, text: v.text } : undefined;
    case 'backgroundStatus':
      return isStr(v.turnId, 200) && BACKGROUND_STATUSES.includes(v.status as string) && isNum(v.elapsedSeconds)
        ? { type: 'backgroundStatus', turnId: v.turnId, status: v.status as BackgroundStatus, elapsedSeconds: v.elapsedSeconds }
        : undefined;
    case 'retryCountdown':
      return isStr(v.turnId, 200) && isNum(v.seconds) ? { type: 'retryCountdown', turnId: v.turnId, seconds: v.seconds } : undefined;
    case 'attachments': {
      const ok = Array.isArray(v.items) && v.items.every((a) => isObj(a) && isStr(a.id, 200) && isStr(a.name, 1000) && (a.kind === 'selection' || a.kind === 'file' || a.kind === 'image'));
      return ok ? { type: 'attachments', items: v.items as AttachmentChip[], imageInput: v.imageInput === true } : undefined;
    }
    case 'restoreDraft':
      if (!isStr(v.text) || (v.turnId !== undefined && !isStr(v.turnId, 200))) return undefined;
      return v.turnId === undefined ? { type: 'restoreDraft', text: v.text } : { type: 'restoreDraft', text: v.text, turnId: v.turnId };
  }
  return undefined;
}

/** Only these schemes leave the webview, and only through the extension. */
export function isSafeLink(href: string): boolean {
  try {
    const u = new URL(href);
    return u.protocol === 'https:' || u.protocol === 'http:' || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}
