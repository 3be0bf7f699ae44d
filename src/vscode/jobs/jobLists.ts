/**
 * The owner of each connection's batches, fine-tuning jobs and incoming calls as the sidebar
 * shows them: the first pages loaded on demand, more on request, items replaced when a command
 * or a webhook delivery says they changed, and polling with backoff while something runs. It
 * fires `onDidChange` with the connection and the list; the tree only listens.
 */
import * as vscode from 'vscode';
import { BATCH_FINAL, JOB_FINAL, type Batch, type FineTuningJob } from '../../service/jobTypes';
import type { ClientCache } from '../connections/clients';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';
import { errorText, logError } from '../log';
import { setting } from '../settings';
import type { SipParty } from '../../webhooks/inspect/sipParty';

export type JobKind = 'batches' | 'fineTuning' | 'calls';
export type CallState = 'ringing' | 'accepted' | 'rejected' | 'referred' | 'ended';

export interface CallEntry {
  id: string;
  /** Who the SIP From and To headers name, as the caller wrote them (callParty.ts shows them). */
  from?: SipParty;
  to?: SipParty;
  state: CallState;
  /** When it rang (ms). */
  at: number;
  headers: Array<{ name: string; value: string }>;
}

export type JobItem = Batch | FineTuningJob | CallEntry;

export interface JobList<T = JobItem> {
  status: 'idle' | 'loading' | 'loaded' | 'error';
  items: T[];
  next?: string;
  hasMore: boolean;
  message?: string;
}

/** First wait between polls while something runs; doubled while nothing changes, up to the max. */
const POLL_FIRST_MS = 5_000;
const POLL_MAX_MS = 120_000;
/** Calls kept per connection (they come only from deliveries: the service lists none). */
const MAX_CALLS = 50;

const running = (kind: JobKind, item: JobItem) =>
  kind === 'batches' ? !BATCH_FINAL.has((item as Batch).status) : kind === 'fineTuning' ? !JOB_FINAL.has((item as FineTuningJob).status) : false;
const idOf = (item: JobItem) => item.id;
const statusOf = (item: JobItem) => ('status' in item ? item.status : item.state);

export class JobLists implements vscode.Disposable {
  private readonly lists = new Map<string, JobList>();
  private readonly polls = new Map<string, { timer: NodeJS.Timeout; delay: number }>();
  private readonly changed = new vscode.EventEmitter<{ connectionId: string; kind: JobKind }>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: ConnectionStore,
    private readonly clients: ClientCache,
  ) {
    // A removed connection's lists and polls go with it.
    this.subscription = store.onDidChange(() => {
      for (const key of [...this.lists.keys()]) if (!store.get(key.split('|')[0]!)) this.forget(key);
    });
  }

  private key(connectionId: string, kind: JobKind): string {
    return `${connectionId}|${kind}`;
  }

  list<T extends JobItem>(connectionId: string, kind: JobKind): JobList<T> {
    return (this.lists.get(this.key(connectionId, kind)) ?? { status: kind === 'calls' ? 'loaded' : 'idle', items: [], hasMore: false }) as JobList<T>;
  }

  private set(connectionId: string, kind: JobKind, list: JobList): void {
    this.lists.set(this.key(connectionId, kind), list);
    this.changed.fire({ connectionId, kind });
  }

  /** Loads the first page (or the next, `more`); a page is the pageSize setting, at most 100. */
  async load(conn: ConnectionInfo, kind: Exclude<JobKind, 'calls'>, more = false): Promise<void> {
    const before = this.list(conn.id, kind);
    if (before.status === 'loading') return;
    this.set(conn.id, kind, { ...before, status: 'loading' });
    try {
      const jobs = (await this.clients.get(conn)).jobs;
      const params = { limit: Math.min(setting('pageSize'), 100), after: more ? before.next : undefined };
      const page = kind === 'batches' ? await jobs.batches.list(params) : await jobs.fineTuning.list(params);
      const items: JobItem[] = more ? [...before.items, ...page.data.filter((x) => !before.items.some((b) => b.id === x.id))] : page.data;
      this.set(conn.id, kind, { status: 'loaded', items, next: page.next, hasMore: page.hasMore });
      this.schedule(conn, kind, changedAny(before.items, page.data));
    } catch (err) {
      logError(`${kind} of ${conn.label}: ${errorText(err)}`);
      this.set(conn.id, kind, { ...before, status: 'error', message: errorText(err) });
    }
  }

  /** Puts a new or changed item in its list (first when new), as a command or delivery saw it. */
  upsert(connectionId: string, kind: JobKind, item: JobItem): void {
    const list = this.list(connectionId, kind);
    const i = list.items.findIndex((x) => x.id === item.id);
    const items = i < 0 ? [item, ...list.items] : list.items.map((x, j) => (j === i ? item : x));
    this.set(connectionId, kind, { ...list, status: list.status === 'idle' ? 'idle' : 'loaded', items });
    const conn = this.store.get(connectionId);
    if (conn && kind !== 'calls') this.schedule(conn, kind, true);
  }

  /** Fetches one batch or job again (after a delivery about it) and puts it in its list. */
  async refreshItem(conn: ConnectionInfo, kind: Exclude<JobKind, 'calls'>, id: string): Promise<JobItem> {
    const jobs = (await this.clients.get(conn)).jobs;
    const item = kind === 'batches' ? await jobs.batches.retrieve(id) : await jobs.fineTuning.retrieve(id);
    this.upsert(conn.id, kind, item);
    return item;
  }

  /** Reloads a list from its first page. */
  refresh(connectionId: string, kind: JobKind): void {
    if (kind === 'calls') return this.changed.fire({ connectionId, kind });
    this.lists.delete(this.key(connectionId, kind));
    this.stopPolling(this.key(connectionId, kind));
    this.changed.fire({ connectionId, kind });
  }

  call(connectionId: string, callId: string): CallEntry | undefined {
    return this.list<CallEntry>(connectionId, 'calls').items.find((c) => c.id === callId);
  }

  /** A call rang, or its state moved; newest first, the oldest forgotten past MAX_CALLS. */
  setCall(connectionId: string, call: CallEntry): void {
    const list = this.list<CallEntry>(connectionId, 'calls');
    const items = [call, ...list.items.filter((c) => c.id !== call.id)].sort((a, b) => b.at - a.at).slice(0, MAX_CALLS);
    this.set(connectionId, 'calls', { status: 'loaded', items, hasMore: false });
  }

  /** While something runs, looks again later: soon after a change, then less and less often. */
  private schedule(conn: ConnectionInfo, kind: Exclude<JobKind, 'calls'>, changed: boolean): void {
    const key = this.key(conn.id, kind);
    const previous = this.polls.get(key);
    this.stopPolling(key);
    if (!this.list(conn.id, kind).items.some((x) => running(kind, x))) return;
    const delay = changed || !previous ? POLL_FIRST_MS : Math.min(previous.delay * 2, POLL_MAX_MS);
    const timer = setTimeout(() => void this.poll(conn, kind), delay);
    this.polls.set(key, { timer, delay });
  }

  private async poll(conn: ConnectionInfo, kind: Exclude<JobKind, 'calls'>): Promise<void> {
    const list = this.list(conn.id, kind);
    const key = this.key(conn.id, kind);
    try {
      const jobs = (await this.clients.get(conn)).jobs;
      const params = { limit: Math.min(setting('pageSize'), 100) };
      const page = kind === 'batches' ? await jobs.batches.list(params) : await jobs.fineTuning.list(params);
      const fresh = new Map<string, JobItem>(page.data.map((x) => [x.id, x]));
      const changed = changedAny(list.items, page.data);
      const items = [...page.data, ...list.items.filter((x) => !fresh.has(x.id))];
      this.lists.set(key, { ...list, status: 'loaded', items });
      if (changed) this.changed.fire({ connectionId: conn.id, kind });
      this.schedule(conn, kind, changed);
    } catch (err) {
      // A failed poll is logged and tried again later; the list keeps what it showed.
      logError(`Polling ${kind} of ${conn.label}: ${errorText(err)}`);
      this.schedule(conn, kind, false);
    }
  }

  private stopPolling(key: string): void {
    const p = this.polls.get(key);
    if (p) clearTimeout(p.timer);
    this.polls.delete(key);
  }

  private forget(key: string): void {
    this.stopPolling(key);
    this.lists.delete(key);
  }

  dispose(): void {
    for (const key of [...this.polls.keys()]) this.stopPolling(key);
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** Whether any item is new or moved to another status. */
function changedAny(before: JobItem[], after: JobItem[]): boolean {
  const old = new Map(before.map((x) => [idOf(x), statusOf(x)]));
  return after.some((x) => old.get(idOf(x)) !== statusOf(x));
}
