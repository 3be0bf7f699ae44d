/**
 * What a run gives back, and the errors it ends with, read the same way by both chats: the panel
 * keeps them on the turn, the language model provider hands them to VS Code.
 */
import * as l10n from '@vscode/l10n';
import { filterAdvice, verdictPhrase, type FilterVerdict } from '../../service/contentFilter';
import { ServiceError } from '../../service/errors';
import type { Usage } from '../../service/types';
import type { ChatApi } from '../modelProfile';
import type { ChatErrorInfo } from '../model';

export interface RunResult {
  content: string;
  usage?: Usage;
  /** The model that answered, as the service names it (e.g. `gpt-4o-2024-11-20`). */
  model?: string;
  finishReason: string | null;
  /** From the first request to the end, waits included. */
  latencyMs: number;
  /** The signal fired: the reply ends where it was. */
  stopped: boolean;
  /** The API that answered. */
  api: ChatApi;
  /** A reasoning model's summary of its thinking (Responses API, when asked for). */
  reasoningSummary?: string;
  /** The Responses API's id of this reply. */
  responseId?: string;
  /** What was changed to get an answer, or how it ended, for the reply to say. */
  notes?: string[];
  /** The content filter's verdicts worth telling (blocked, detected or above safe), prompt and reply. */
  filterVerdicts?: FilterVerdict[];
}

/** The content filter ended a reply that had begun. */
export class ReplyFilteredError extends Error {
  override readonly name = 'ReplyFilteredError';

  constructor(deployment: string, verdicts: readonly FilterVerdict[] = []) {
    const blocked = verdicts.filter((v) => v.filtered);
    super(
      blocked.length
        ? `${l10n.t('The content filter stopped the reply of "{0}" part way: {1}.', deployment, blocked.map(verdictPhrase).join(', '))} ${filterAdvice(blocked).join(' ')}`
        : l10n.t('The content filter stopped the reply of "{0}" part way. Rephrase the request and send it again.', deployment),
    );
  }
}

/** What the panel keeps of an error on the turn. */
export function errorInfo(err: unknown): ChatErrorInfo {
  if (err instanceof ServiceError) {
    return { message: err.message, kind: err.kind, status: err.status, code: err.code, retryAfterMs: err.retryAfterMs };
  }
  return { message: err instanceof Error ? err.message : String(err), kind: 'unknown' };
}
