/**
 * One reply of the chat panel: its conversation sent through the chat runner with the panel's
 * options, the text streamed to the page and saved as it arrives (throttled, so a reload or a
 * crash keeps it), or started in the background and followed by id.
 */
import type { Conversation } from '../../chat/conversation';
import { requestMessages } from '../../chat/conversation';
import { PANEL_RUN } from '../../chat/engine/options';
import type { RunRequest } from '../../chat/engine/runner';
import type { ChatTurn } from '../../chat/model';
import { panelRequest } from '../../chat/panelRequest';
import { ThrottledSave } from '../../chat/replyDraft';
import { estimateUsage } from '../../chat/tokenEstimate';
import type { AzureOpenAIClient } from '../../service/client';
import type { HostMessage } from '../../webview/chat/protocol';
import type { Uri } from 'vscode';
import { loadTrace } from '../layerBundles';
import { BackgroundReplies } from './backgroundReplies';

export interface ReplyContext {
  conversation: Conversation;
  /** The assistant's turn, filled in as the reply arrives. */
  turn: ChatTurn;
  client: AzureOpenAIClient;
  /** The deployment's model as listed, if known. */
  model: string | undefined;
  signal: AbortSignal;
  post: (msg: HostMessage) => void;
  save: () => Promise<void>;
  background: BackgroundReplies;
  /** True once the window is going away: a reply stopped then was cut off, not stopped by the user. */
  cutOff: () => boolean;
  /** Where each request's usage report goes (the usage log). */
  onReport?: RunRequest['onReport'];
  /** The conversations' folder: the reply's trace is kept beside it (src/vscode/trace). */
  storage: Uri;
}

/** Runs the reply to its end; false when the panel closed while a background reply was followed. */
export async function streamReply(x: ReplyContext): Promise<boolean> {
  const { conversation: c, turn, post } = x;
  const prompt = requestMessages(c);
  const draft = new ThrottledSave(x.save);
  const input: RunRequest = {
    ...panelRequest(c, x.model),
    client: x.client,
    connection: c.connectionId,
    signal: x.signal,
    onReport: x.onReport,
    onText: (text) => {
      turn.content += text;
      post({ type: 'delta', turnId: turn.id, text });
      draft.touch();
    },
    onReasoning: (text) => post({ type: 'reasoningDelta', turnId: turn.id, text }),
    onRetryWait: (seconds) => post({ type: 'retryCountdown', turnId: turn.id, seconds }),
  };
  if (c.params.background) {
    await x.background.start(input, turn, x.storage);
    // Saved while queued: a reload picks the reply up again by its id.
    c.turns.push(turn);
    await x.save();
    return BackgroundReplies.pending(turn) ? x.background.follow(x.client, turn, x.signal) : true;
  }
  // In the conversation while it streams, marked so: a reload or a crash keeps what arrived (see replyDraft.ts).
  turn.streaming = true;
  c.turns.push(turn);
  try {
    const { stopped, ...result } = await loadTrace().tracedRun(x.storage, input, PANEL_RUN, (traceId) => (turn.traceId = traceId));
    const interrupted = stopped && x.cutOff();
    Object.assign(turn, result, { stopped: (stopped && !interrupted) || undefined, interrupted: interrupted || undefined });
    // Stopped before the service sent its figures: count locally, and say so.
    if (!result.usage && stopped) Object.assign(turn, { usage: estimateUsage(prompt, turn.content), usageEstimated: true });
  } finally {
    delete turn.streaming;
    await draft.settle();
  }
  return true;
}
