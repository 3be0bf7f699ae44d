/** The job groups' part of the Resources view: which groups a connection shows and their rows. */
import * as vscode from 'vscode';
import type { Batch, FineTuningJob } from '../../service/jobTypes';
import type { CallEntry, JobKind, JobLists } from '../jobs/jobLists';
import { BatchNode, CallNode, FineTuningJobNode, groupLook, JobGroupNode, jobTreeItem, type JobNode } from './jobNodes';
import { MessageNode, type ConnectionNode } from './nodes';

export class JobsTree implements vscode.Disposable {
  private readonly groups = new WeakMap<ConnectionNode, Record<JobKind, JobGroupNode>>();
  private readonly byConnection = new Map<string, Record<JobKind, JobGroupNode>>();
  private readonly changed = new vscode.EventEmitter<JobGroupNode | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly lists: JobLists,
    /** Whether the webhook listener runs: calls arrive only through it. */
    private readonly listening: () => boolean,
  ) {
    this.subscription = lists.onDidChange(({ connectionId, kind }) => this.changed.fire(this.byConnection.get(connectionId)?.[kind]));
  }

  /** Fires when the listener starts or stops (the Calls group comes and goes). */
  listeningChanged(): void {
    this.changed.fire(undefined);
  }

  private groupsOf(conn: ConnectionNode): Record<JobKind, JobGroupNode> {
    let g = this.groups.get(conn);
    if (!g) {
      g = { batches: new JobGroupNode('batches', conn), fineTuning: new JobGroupNode('fineTuning', conn), calls: new JobGroupNode('calls', conn) };
      this.groups.set(conn, g);
    }
    this.byConnection.set(conn.info.id, g);
    return g;
  }

  /** The groups under a connection, after its deployments and webhook endpoints. */
  children(conn: ConnectionNode): JobGroupNode[] {
    const g = this.groupsOf(conn);
    return this.listening() ? [g.batches, g.fineTuning, g.calls] : [g.batches, g.fineTuning];
  }

  group(connectionId: string, kind: JobKind): JobGroupNode | undefined {
    return this.byConnection.get(connectionId)?.[kind];
  }

  rows(node: JobNode): Array<JobNode | MessageNode> {
    if (node.type !== 'jobGroup') return [];
    const list = this.lists.list(node.connection.id, node.kind);
    if (list.status === 'idle' && node.kind !== 'calls') {
      void this.lists.load(node.connection, node.kind);
      return [new MessageNode(node, 'loading', vscode.l10n.t('Loading…'))];
    }
    if (list.status === 'loading' && list.items.length === 0) return [new MessageNode(node, 'loading', vscode.l10n.t('Loading…'))];
    if (list.status === 'error' && list.items.length === 0) return [new MessageNode(node, 'error', (list.message ?? '').split(/(?<=\.)\s/)[0] ?? '', list.message)];
    if (list.items.length === 0) return [new MessageNode(node, 'empty', groupLook(node.kind).empty)];
    const rows: Array<JobNode | MessageNode> = list.items.map((x) =>
      node.kind === 'batches' ? new BatchNode(node, x as Batch) : node.kind === 'fineTuning' ? new FineTuningJobNode(node, x as FineTuningJob) : new CallNode(node, x as CallEntry),
    );
    if (list.hasMore) rows.push(new MessageNode(node, 'more', vscode.l10n.t('Load more…')));
    if (list.status === 'error') rows.push(new MessageNode(node, 'error', vscode.l10n.t('Could not refresh'), list.message));
    return rows;
  }

  item(node: JobNode): vscode.TreeItem {
    if (node.type !== 'jobGroup') return jobTreeItem(node);
    const list = this.lists.list(node.connection.id, node.kind);
    return jobTreeItem(node, list.status === 'loaded' && list.items.length ? `${list.items.length}${list.hasMore ? '+' : ''}` : undefined);
  }

  /** Reloads a connection's batches and jobs (the Refresh of the view or of the connection). */
  refreshConnection(connectionId: string): void {
    this.lists.refresh(connectionId, 'batches');
    this.lists.refresh(connectionId, 'fineTuning');
  }

  /** Reloads a group (or loads its next page, `more`). */
  async refresh(node: JobGroupNode, more = false): Promise<void> {
    if (node.kind === 'calls') return this.lists.refresh(node.connection.id, 'calls');
    if (more) return this.lists.load(node.connection, node.kind, true);
    this.lists.refresh(node.connection.id, node.kind);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
