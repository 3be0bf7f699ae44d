/**
 * The chat panel's background replies: started on the Responses API with `background: true`,
 * saved at once (queued) so a window reload picks them up again by id, followed until final with
 * the elapsed time shown, woken early by a `response.*` webhook delivery, and cancelled by Stop.
 */
import * as vscode from 'vscode';
import type { Waker } from '../../chat/engine/background';
import { PANEL_RUN } from '../../chat/engine/options';
import type { RunRequest } from '../../chat/engine/runner';
import { FINAL_STATUSES, type BackgroundStatus, type ChatTurn } from '../../chat/model';
import { type HostMessage } from '../../webview/chat/protocol';
import type { AzureOpenAIClient } from '../../service/client';
import type { ForwardAnswer, WakingRecord } from '../../trace/backgroundTrace';
import { loadNetwork } from '../bundles';
import { loadTrace, type TraceBundle } from '../layerBundles';

/** A `response.*` delivery for a followed response: its record, and the app's answer to its forward once it comes. */
export interface WakingDelivery {
  record: WakingRecord;
  /** Absent when the listener does not forward it (no app set): the trace waits for nothing. */
  forwarded?: () => Promise<ForwardAnswer | undefined>;
}

type Traced = ReturnType<TraceBundle['tracedBackground']>;

export class BackgroundReplies {
  private readonly wakers = new Map<string, { waker: Waker; traced?: Traced; delivery?: WakingDelivery }>();
  /** Replies started in this window, traced from their creation (by turn id) until followed to the end. */
  private readonly traced = new Map<string, Traced>();
  private cancelCurrent: (() => Promise<unknown>) | undefined;

  constructor(private readonly post: (msg: HostMessage) => void) {}

  /** True when the turn is a background reply that has not finished. */
  static pending(turn: ChatTurn | undefined): turn is ChatTurn & { responseId: string } {
    return turn?.role === 'assistant' && !!turn.responseId && !!turn.backgroundStatus && !FINAL_STATUSES.has(turn.backgroundStatus);
  }

  /** Creates the background response; the turn carries its id and status from then on. */
  async start(input: RunRequest, turn: ChatTurn, conversations?: vscode.Uri): Promise<void> {
    const notes: string[] = [];
    // Traced (src/vscode/trace) when there is a place to keep the trace: beside the conversations' folder, as a turn's.
    const traced = conversations && loadTrace().tracedBackground(vscode.Uri.joinPath(conversations, '..'), input.deployment, input.client.endpoint);
    const t0 = Date.now();
    const r = await loadNetwork()
      .startBackground(input, PANEL_RUN, notes)
      .catch((err: unknown) => {
        traced?.trace.created(t0, Date.now(), undefined, err);
        traced?.end(undefined, err);
        throw err;
      });
    traced?.trace.created(t0, Date.now(), r);
    if (traced) this.traced.set(turn.id, traced);
    Object.assign(turn, { traceId: traced?.trace.traceId, responseId: r.id, backgroundStatus: r.status, api: 'responses', model: r.model, notes: notes.length ? notes : undefined });
  }

  /** Follows the turn's response to its end and fills the turn in; false when the panel left first. */
  async follow(client: AzureOpenAIClient, turn: ChatTurn & { responseId: string }, signal: AbortSignal): Promise<boolean> {
    const { Waker, followResponse, resultOf } = loadNetwork();
    const waker = new Waker();
    const traced = this.traced.get(turn.id);
    this.traced.delete(turn.id);
    // Followed again after a reload: the trace begun before it was not kept, and none is made now.
    if (!traced) delete turn.traceId;
    const following: { waker: Waker; traced?: Traced; delivery?: WakingDelivery } = { waker, traced };
    this.wakers.set(turn.responseId, following);
    let status: BackgroundStatus = turn.backgroundStatus ?? 'queued';
    const tick = () => this.post({ type: 'backgroundStatus', turnId: turn.id, status, elapsedSeconds: Math.max(0, Math.round((Date.now() - turn.createdAt) / 1000)) });
    tick();
    const timer = setInterval(tick, 1000);
    this.cancelCurrent = () => client.cancelResponse(turn.responseId);
    try {
      const r = await followResponse(client, turn.responseId, signal, (s) => {
        traced?.trace.saw(s);
        if (s === status) return;
        status = s;
        turn.backgroundStatus = s;
        tick();
      }, waker);
      if (!r) return false;
      traced?.end(r, undefined, following.delivery?.forwarded);
      Object.assign(turn, resultOf(r, Date.now() - turn.createdAt), { backgroundStatus: r.status });
      if (r.status === 'failed') {
        const code = r.error?.code;
        const why = r.error?.message ?? vscode.l10n.t('the service gave no reason');
        const message = code
          ? vscode.l10n.t('The background response failed ({0}): {1}. Send the message again.', code, why)
          : vscode.l10n.t('The background response failed: {0}. Send the message again.', why);
        turn.error = { kind: 'stream', code, message };
      }
      return true;
    } finally {
      clearInterval(timer);
      this.wakers.delete(turn.responseId);
      this.cancelCurrent = undefined;
    }
  }

  /** A `response.*` delivery for this id arrived: look at the response now (the trace notes the delivery). */
  wake(responseId: string, delivery?: WakingDelivery): void {
    const following = this.wakers.get(responseId);
    if (!following) return;
    if (delivery) {
      following.delivery = delivery;
      following.traced?.trace.wake(delivery.record);
    }
    following.waker.wake();
  }

  /** Stop on a background reply cancels it on the service; false when none is being followed. */
  async cancel(): Promise<boolean> {
    if (!this.cancelCurrent) return false;
    await this.cancelCurrent();
    return true;
  }
}
