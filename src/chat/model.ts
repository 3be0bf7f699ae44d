/**
 * The chat's data model: a conversation's settings, turns, attachments and errors, as the panel
 * keeps them, the page shows them and the conversation store saves them (the saved format itself
 * is conversation.ts). The checks here are the ones both sides of the page protocol apply to what
 * they receive (src/webview/chat/protocol.ts). Plain data, no keys or tokens.
 */
import type { FilterVerdict } from '../service/contentFilter';
import type { Usage } from '../service/types';
import { isObj, isText, type Obj } from '../service/shapes';

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
  /** prompt_cache_key and prompt_cache_retention: sent on the v1 route only (the dated api-versions' descriptions lack them). */
  promptCacheKey?: string;
  promptCacheRetention?: 'in_memory' | '24h';
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
  /** The content filter's verdicts on the prompt and the reply (contentFilter.ts), shown on request. */
  filterVerdicts?: FilterVerdict[];
  /** A background reply's status on the service (queued, in_progress, then final). */
  backgroundStatus?: BackgroundStatus;
  /** Saved while its reply was still arriving (see replyDraft.ts). */
  streaming?: boolean;
  /** The window reloaded or the extension host stopped while this reply streamed: what arrived is kept. */
  interrupted?: boolean;
  /** The reply's trace (src/trace), opened by its Show Trace button. */
  traceId?: string;
}

export type BackgroundStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';
/** The statuses a background response ends in. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set<BackgroundStatus>(['completed', 'failed', 'cancelled', 'incomplete']);
export const BACKGROUND_STATUSES: readonly string[] = ['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete'];

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

const MAX_TEXT = 1_000_000;

export { isObj, type Obj };
export const isStr = (v: unknown, max = MAX_TEXT): v is string => isText(v, max);
// Number.isFinite takes no string for a number.
export const isNum = (v: unknown): v is number => Number.isFinite(v);
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
  if (v.promptCacheKey !== undefined) {
    if (v.promptCacheKey !== null && !isStr(v.promptCacheKey, 1024)) return undefined;
    out.promptCacheKey = (v.promptCacheKey as string | null) || undefined;
  }
  if (v.promptCacheRetention !== undefined) {
    if (v.promptCacheRetention !== null && v.promptCacheRetention !== 'in_memory' && v.promptCacheRetention !== '24h') return undefined;
    out.promptCacheRetention = v.promptCacheRetention ?? undefined;
  }
  return out;
}

const isCitation = (c: unknown): boolean => isObj(c) && (c.url === undefined || isStr(c.url, 2048)) && (c.license === undefined || isStr(c.license, 200));

const isVerdict = (v: unknown): boolean =>
  isObj(v) && isStr(v.key, 64) && isStr(v.category, 64) && (v.where === 'prompt' || v.where === 'reply') && typeof v.filtered === 'boolean' && (v.severity === undefined || isStr(v.severity, 16)) &&
  (v.citation === undefined || isCitation(v.citation));

/** The optional fields a turn may carry, each of its type when present. */
function optionalTurnFields(v: Obj): boolean {
  return (
    (v.api === undefined || v.api === 'chat' || v.api === 'responses') &&
    (v.reasoningSummary === undefined || isStr(v.reasoningSummary)) &&
    (v.responseId === undefined || isStr(v.responseId, 200)) &&
    (v.notes === undefined || (Array.isArray(v.notes) && v.notes.length <= 20 && v.notes.every((n) => isStr(n, 1000)))) &&
    (v.filterVerdicts === undefined || (Array.isArray(v.filterVerdicts) && v.filterVerdicts.length <= 40 && v.filterVerdicts.every(isVerdict))) &&
    (v.backgroundStatus === undefined || BACKGROUND_STATUSES.includes(v.backgroundStatus as string)) &&
    (v.streaming === undefined || typeof v.streaming === 'boolean') &&
    (v.interrupted === undefined || typeof v.interrupted === 'boolean') &&
    (v.traceId === undefined || isStr(v.traceId, 64))
  );
}

export function isTurn(v: unknown): v is ChatTurn {
  return isObj(v) && isStr(v.id, 200) && (v.role === 'user' || v.role === 'assistant') && isStr(v.content) && isNum(v.createdAt) && optionalTurnFields(v);
}

export function isConversation(v: unknown): v is ConversationView {
  return isObj(v) && isStr(v.id, 200) && isStr(v.title, 1000) && isStr(v.deployment, 200) && isObj(v.params) && Array.isArray(v.turns) && v.turns.every(isTurn);
}

export function isDeployments(v: unknown): v is DeploymentOption[] {
  return Array.isArray(v) && v.every((d) => isObj(d) && isStr(d.connectionId, 200) && isStr(d.deployment, 200));
}

