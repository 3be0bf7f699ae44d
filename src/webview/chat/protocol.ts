/**
 * The one message protocol between the chat page and the extension. Both sides import this file
 * and validate everything they receive with it: a message that does not parse is dropped. It
 * carries no keys or tokens. What the messages carry is the chat's data model (src/chat/model.ts).
 */
import {
  BACKGROUND_STATUSES,
  isConversation,
  isDeployments,
  isNum,
  isObj,
  isStr,
  isTurn,
  parseParams,
  type Attachment,
  type BackgroundStatus,
  type ChatParams,
  type ChatTurn,
  type ConversationView,
  type DeploymentOption,
} from '../../chat/model';

/** An attachment as the composer shows it, before sending: no contents. */
export interface AttachmentChip {
  id: string;
  kind: Attachment['kind'];
  name: string;
  /** About what it adds to the prompt (for the context meter). */
  tokens?: number;
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
  | { type: 'setDeployment'; connectionId: string; deployment: string }
  | { type: 'setParams'; params: Partial<ChatParams> }
  | { type: 'copyCode'; code: string }
  | { type: 'insertCode'; code: string }
  | { type: 'openLink'; href: string }
  /** Sends `text` in place of the user's message `turnId`: the turns from there on are replaced. */
  | { type: 'editFrom'; turnId: string; text: string }
  /** Copies a message's text (a reply as its Markdown source). */
  | { type: 'copyTurn'; turnId: string }
  /** Opens the reply's trace on its timeline page. */
  | { type: 'showTrace'; turnId: string }
  | { type: 'attach'; kind: Attachment['kind'] }
  | { type: 'removeAttachment'; id: string };

/** Validates a message from the webview. */
export function parseViewMessage(v: unknown): ViewMessage | undefined {
  // A type that is not a string matches no case.
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'ready':
    case 'stop':
    case 'regenerate':
      return { type: v.type };
    case 'send':
      return isStr(v.text) && v.text.trim() ? { type: v.type, text: v.text } : undefined;
    case 'copyCode':
    case 'insertCode':
      return isStr(v.code) ? { type: v.type, code: v.code } : undefined;
    case 'openLink':
      return isStr(v.href, 8192) ? { type: 'openLink', href: v.href } : undefined;
    case 'setDeployment':
      return isStr(v.connectionId, 200) && isStr(v.deployment, 200) && v.deployment ? { type: 'setDeployment', connectionId: v.connectionId, deployment: v.deployment } : undefined;
    case 'setParams': {
      const params = parseParams(v.params);
      return params ? { type: 'setParams', params } : undefined;
    }
    case 'copyTurn':
    case 'showTrace':
      return isStr(v.turnId, 200) ? { type: v.type, turnId: v.turnId } : undefined;
    case 'attach':
      return v.kind === 'selection' || v.kind === 'file' || v.kind === 'image' ? { type: 'attach', kind: v.kind } : undefined;
    case 'removeAttachment':
      return isStr(v.id, 200) ? { type: 'removeAttachment', id: v.id } : undefined;
    case 'editFrom':
      return isStr(v.turnId, 200) && isStr(v.text) && v.text.trim() ? { type: 'editFrom', turnId: v.turnId, text: v.text } : undefined;
  }
  return undefined;
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
