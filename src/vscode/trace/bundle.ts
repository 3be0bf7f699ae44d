/**
 * Traces in the editor, bundled apart as `dist/trace.js` (esbuild.mjs) and required on the first
 * traced reply or Show Trace (src/vscode/bundles.ts): the store of the last N traces in global
 * storage, the export to the user's collector when `aoaiWorkbench.telemetry.otlpEndpoint` is set
 * (dist/otlp.js loaded then, never otherwise), and the timeline page.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunnerOptions } from '../../chat/engine/options';
import type { RunRequest } from '../../chat/engine/runner';
import type { RunResult } from '../../chat/engine/result';
import { dateTime } from '../../text/format';
import type { Batch } from '../../service/jobTypes';
import type { ResponseObject } from '../../service/types';
import { BackgroundTrace, DELIVERY, type ForwardAnswer } from '../../trace/backgroundTrace';
import { BatchTrace } from '../../trace/batchTrace';
import { TraceBuilder } from '../../trace/builder';
import { TraceExportQueue } from '../../trace/exportQueue';
import { TraceStore } from '../../trace/traceStore';
import type { Trace, TraceKind } from '../../trace/types';
import { loadNetwork, loadOtlp } from '../bundles';
import type { JobLists } from '../jobs/jobLists';
import { log } from '../log';
import { setting } from '../settings';
import { showTimeline } from './timeline';

export { forwardOf } from '../../trace/backgroundTrace';

let store: Promise<TraceStore> | undefined;
let queue: { endpoint: string; queue: TraceExportQueue; close: () => Promise<void> } | undefined;

/** The store, in global storage (`storage` is its folder, or a folder in it for a chat's reply). */
function traces(storage: vscode.Uri): Promise<TraceStore> {
  return (store ??= TraceStore.open(join(storage.fsPath, 'traces.jsonl'), setting('telemetry.maxTraces')));
}

const extensionVersion = (): string => String(vscode.extensions.getExtension('aoai-workbench.aoai-workbench')?.packageJSON?.version ?? '');

/** Hands the trace to the user's collector when an endpoint is set; nothing is loaded or sent otherwise. */
function exportTrace(trace: Trace): void {
  const endpoint = setting('telemetry.otlpEndpoint').trim();
  if (queue && queue.endpoint !== endpoint) {
    void queue.close();
    queue = undefined;
  }
  if (!endpoint) return;
  if (!queue) {
    let sender: InstanceType<ReturnType<typeof loadOtlp>['OtlpTraceSender']> | undefined;
    const q = new TraceExportQueue({
      send: (batch) => (sender ??= new (loadOtlp().OtlpTraceSender)(endpoint, extensionVersion())).send(batch),
      onError: (err) => log().appendLine(`Traces could not be sent to ${endpoint}: ${err instanceof Error ? err.message : String(err)}`),
    });
    queue = { endpoint, queue: q, close: async () => (await q.flush(), await sender?.shutdown()) };
  }
  queue.queue.add(trace);
}

/** A trace under way: `observe` wraps a request's hooks (any number), `end` keeps and exports it (never throws). */
export interface Tracer {
  traceId: string;
  builder: TraceBuilder;
  observe(request: RunRequest): RunRequest;
  end(outcome: { result?: RunResult; error?: unknown }): void;
}

/** The service's host and port, for server.address / server.port; none for an endpoint that is not a URL. */
function serverOf(endpoint: string | undefined): { address: string; port?: number } | undefined {
  try {
    const url = new URL(endpoint ?? '');
    return { address: url.hostname, port: url.port ? Number(url.port) : undefined };
  } catch {
    return undefined;
  }
}

/** A trace of `kind` (`storage`: global storage); `endpoint` names the service's server in the spans. */
export function tracer(storage: vscode.Uri, kind: TraceKind, title: string, endpoint?: string, start = Date.now()): Tracer {
  const capture = setting('telemetry.captureContent');
  const server = serverOf(endpoint);
  const builder = new TraceBuilder(kind, title, { captureContent: capture, server }, start);
  let input: unknown;
  return {
    traceId: builder.traceId,
    builder,
    observe: (request) => {
      if (capture) input = request.messages;
      return builder.observe(request);
    },
    end: ({ result, error }) => keep(storage, builder.end({ result, error, input })),
  };
}

/** Traces still waiting for a part (a forward's answer), by id: Show Trace waits for them. */
const pending = new Map<string, Promise<void>>();

/** A background reply's trace: `end` keeps it, once the forward of the delivery that ended the wait is answered. */
export function tracedBackground(storage: vscode.Uri, deployment: string, endpoint?: string) {
  const trace = new BackgroundTrace(deployment, { captureContent: false, server: serverOf(endpoint) });
  return {
    trace,
    end(r: ResponseObject | undefined, error: unknown, forwarded?: () => Promise<ForwardAnswer | undefined>): void {
      const at = Date.now();
      if (!trace.endedBy || !forwarded) return keep(storage, () => trace.finish(r, { error }, at));
      const kept = forwarded()
        .catch(() => undefined)
        .then((forward) => keep(storage, () => trace.finish(r, { error, forward }, at)))
        .finally(() => pending.delete(trace.traceId));
      pending.set(trace.traceId, kept);
    },
  };
}

/**
 * Keeps a finished trace in the store and hands it to the user's collector (never throws): both
 * after the caller's turn (the store builds it then), so a reply is not held up by its trace.
 */
export function keep(storage: vscode.Uri, finished: () => Trace): void {
  void traces(storage).then((s) =>
    s.add(() => {
      try {
        const trace = finished();
        exportTrace(trace);
        return trace;
      } catch (err) {
        log().appendLine(`The trace could not be kept: ${String(err)}`);
        return undefined;
      }
    }),
  );
}

/** Tool calls VS Code's chat was asked for, by call id (the newest 200): the request carrying a result times the tool's run. */
const lmToolCalls = new Map<string, { at: number; name: string }>();

/**
 * A request of VS Code's chat, traced: VS Code runs the tools, so a tool's span runs from the
 * model asking for it (an earlier request) to this request bringing its result, with the result's size.
 */
export function tracedLmRequest(storage: vscode.Uri, input: RunRequest): Tracer {
  const now = Date.now();
  const ran: Array<{ callId: string; name: string; start: number; resultBytes: number }> = [];
  for (const m of input.messages) {
    for (const p of m.parts) {
      const asked = p.type === 'toolResult' ? lmToolCalls.get(p.callId) : undefined;
      if (p.type !== 'toolResult' || !asked) continue;
      lmToolCalls.delete(p.callId);
      const resultBytes = p.parts.reduce((n, x) => n + (x.type === 'text' ? Buffer.byteLength(x.text) : x.data.byteLength), 0);
      ran.push({ callId: p.callId, name: asked.name, start: asked.at, resultBytes });
    }
  }
  const t = tracer(storage, 'turn', input.deployment, input.client.endpoint, Math.min(now, ...ran.map((r) => r.start)));
  for (const r of ran) t.builder.tool(r, { start: r.start, end: now, resultBytes: r.resultBytes });
  return {
    ...t,
    observe: (request) => {
      const observed = t.observe(request);
      return {
        ...observed,
        onToolCall: (call) => {
          lmToolCalls.set(call.callId, { at: Date.now(), name: call.name });
          if (lmToolCalls.size > 200) lmToolCalls.delete(lmToolCalls.keys().next().value!);
          observed.onToolCall?.(call);
        },
      };
    },
  };
}

/** The panel's reply, traced: the runner's run with its trace kept beside the conversations (`conversations`: their folder). */
export async function tracedRun(conversations: vscode.Uri, input: RunRequest, options: RunnerOptions, named?: (traceId: string) => void): Promise<RunResult> {
  const t = tracer(vscode.Uri.joinPath(conversations, '..'), 'turn', input.deployment, input.client.endpoint);
  named?.(t.traceId);
  try {
    const result = await loadNetwork().runChat(t.observe(input), options);
    t.end({ result });
    return result;
  } catch (error) {
    t.end({ error });
    throw error;
  }
}

/**
 * A batch created by the Create Batch command, traced: the command times its steps into the trace,
 * then the trace follows the batch through the job lists (their owner fires a change on each poll
 * or batch.* delivery that moved it) and is kept once the batch ends. Nothing here polls.
 */
export interface TracedBatch {
  trace: BatchTrace;
  /** The batch exists: follow it until it ends (a window closed first loses its trace). */
  follow(batch: Batch): void;
  /** Creating it failed: its trace is kept with the reason. */
  failed(error: unknown): void;
}

export function traceBatch(storage: vscode.Uri, jobs: Pick<JobLists, 'onDidChange' | 'list'>, connectionId: string): TracedBatch {
  const trace = new BatchTrace();
  return {
    trace,
    follow(batch) {
      trace.created(batch.id);
      const seen = (b: Batch | undefined) => {
        const ended = b && trace.saw(b);
        if (ended) keep(storage, () => ended);
        return !!ended;
      };
      if (seen(batch)) return;
      const watching = jobs.onDidChange(({ connectionId: id, kind }) => {
        if (id !== connectionId || kind !== 'batches') return;
        if (seen(jobs.list<Batch>(connectionId, 'batches').items.find((x) => x.id === batch.id))) watching.dispose();
      });
    },
    failed: (error) => {
      const ended = trace.failed(error);
      keep(storage, () => ended);
    },
  };
}

/** What Show Trace opens: a trace's id, a batch's trace, or the trace a delivery is in (a background reply's). */
export type TraceOf = string | { batchId: string } | { deliveryId: string };

function findTrace(all: readonly Trace[], which: TraceOf): Trace | undefined {
  if (typeof which === 'string') return all.find((t) => t.traceId === which);
  if ('batchId' in which) return all.findLast((t) => t.kind === 'batch' && t.title === which.batchId);
  return all.findLast((t) => t.spans.some((span) => span.attributes[DELIVERY.id] === which.deliveryId));
}

/** Show Trace: the trace given (by its id, or a batch's by the batch's id), else one picked from the newest. */
export async function showTrace(context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'extensionUri'>, which?: TraceOf): Promise<void> {
  if (typeof which === 'string') await pending.get(which);
  else if (which && 'deliveryId' in which) await Promise.all(pending.values());
  const s = await traces(context.globalStorageUri);
  let trace = which && findTrace(s.all(), which);
  if (which && !trace) {
    void vscode.window.showInformationMessage(
      typeof which === 'string'
        ? vscode.l10n.t('That trace is no longer kept: only the newest {0} are (the setting aoaiWorkbench.telemetry.maxTraces).', s.maxTraces)
        : 'batchId' in which
          ? vscode.l10n.t('No trace of the batch {0}: a batch created here is traced, and its trace kept once it ends (while this window is open).', which.batchId)
          : vscode.l10n.t("No trace holds this delivery: a delivery is traced when it ends the wait of a chat panel's background reply."),
    );
    return;
  }
  if (!trace) {
    const items = [...s.all()].reverse().map((t) => ({ label: t.spans[0].name, description: dateTime(t.start), detail: `${t.spans.length} spans, ${t.end - t.start} ms`, trace: t }));
    if (!items.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No traces yet: send a message in a chat panel, and its trace is kept here.'));
      return;
    }
    trace = (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Show Trace'), placeHolder: vscode.l10n.t('Pick a trace, newest first') }))?.trace;
  }
  if (trace) showTimeline(context.extensionUri, trace);
}

/** Writes what waits (the extension's deactivate). */
export async function flushTraces(): Promise<void> {
  await Promise.all([store?.then((s) => s.flush()), queue?.queue.flush()]);
}
