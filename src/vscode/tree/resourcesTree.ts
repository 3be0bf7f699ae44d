/**
 * The Resources view: connections → Deployments / Webhook endpoints. Lists load in the
 * background (a "Loading…" row, then the items, an empty row or an error row with retry), and
 * long lists come a page at a time. It only listens: to the connection store (connections,
 * keys, signing secrets), to the deployment catalog (whose lists the chats read too) and to the
 * webhook endpoints' owner.
 */
import * as vscode from 'vscode';
import type { Deployment, WebhookEndpoint } from '../../service/types';
import type { ClientCache } from '../connections/clients';
import type { ConnectionCatalog } from '../connections/connectionCatalog';
import type { ConnectionStore, SecretChange } from '../connections/connectionStore';
import { Views } from '../contributions';
import { errorText, logError } from '../log';
import { setting } from '../settings';
import type { WebhookEndpoints } from '../webhooks/endpoints';
import { isJobNode, JobGroupNode } from './jobNodes';
import type { JobsTree } from './jobsTree';
import { ConnectionNode, DeploymentNode, GroupNode, MessageNode, WebhookNode, toTreeItem, type LoadState, type TreeNode } from './nodes';

export class ResourcesTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Kept across refreshes so expanded state and loaded lists survive unrelated changes. */
  private nodes = new Map<string, ConnectionNode>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: ConnectionStore,
    private readonly clients: ClientCache,
    private readonly endpoints: WebhookEndpoints,
    private readonly catalog: ConnectionCatalog,
    /** Batches, fine-tuning jobs and calls under each connection (see jobsTree.ts). */
    private readonly jobs?: JobsTree,
  ) {
    if (jobs) this.disposables.push(jobs.onDidChange((group) => this.changed.fire(group)));
    this.disposables.push(
      store.onDidChange(() => this.syncConnections()),
      catalog.onDidChange((connectionId) => {
        for (const node of connectionId === undefined ? this.nodes.values() : [this.nodes.get(connectionId)]) if (node) this.changed.fire(node.deployments);
      }),
      store.onDidChangeSecret((e) => this.secretChanged(e)),
      endpoints.onDidChange((connectionId) => {
        const group = this.nodes.get(connectionId)?.webhooks;
        if (group) this.refresh(group);
      }),
    );
  }

  private secretChanged(e: SecretChange): void {
    const node = this.nodes.get(e.connectionId);
    if (!node) return;
    // A new key: reload what failed or was listed with the old one (the catalog drops its own
    // deployments list). A signing secret: redraw the rows.
    if (e.kind === 'apiKey') this.refresh(node.webhooks);
    else this.changed.fire(node.webhooks);
  }

  private syncConnections(): void {
    const next = new Map<string, ConnectionNode>();
    for (const info of this.store.list()) {
      const old = this.nodes.get(info.id);
      next.set(info.id, old && JSON.stringify(old.info) === JSON.stringify(info) ? old : new ConnectionNode(info));
    }
    this.nodes = next;
    this.changed.fire(undefined);
  }

  connectionNode(id: string): ConnectionNode | undefined {
    if (this.nodes.size === 0) this.syncConnections();
    return this.nodes.get(id);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (isJobNode(node)) return this.jobs!.item(node);
    return toTreeItem(node, node.type === 'group' ? this.stateOf(node) : undefined);
  }

  /** A group's list: the catalog's deployments (revealed a page at a time), or the endpoints paged so far. */
  private stateOf(group: GroupNode): LoadState {
    if (group.kind !== 'deployments') return group.state;
    const s = this.catalog.state(group.connection);
    if (s.status === 'loaded') return { status: 'loaded', items: [...s.items], shown: group.shown ?? setting('pageSize'), hasMore: false };
    if (s.status === 'error') return { status: 'error', message: errorText(s.error) };
    return s;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.type === 'connection' ? undefined : (node.parent as TreeNode);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      if (this.nodes.size === 0) this.syncConnections();
      return [...this.nodes.values()];
    }
    if (node.type === 'connection') return [node.deployments, node.webhooks, ...(this.jobs?.children(node) ?? [])];
    if (isJobNode(node)) return this.jobs?.rows(node) ?? [];
    if (node.type === 'group') return this.groupChildren(node as GroupNode);
    return [];
  }

  private groupChildren(group: GroupNode): TreeNode[] {
    const s = this.stateOf(group);
    if (s.status === 'idle') {
      this.load(group, false);
      return [new MessageNode(group, 'loading', vscode.l10n.t('Loading…'))];
    }
    if (s.status === 'loading') return [new MessageNode(group, 'loading', vscode.l10n.t('Loading…'))];
    if (s.status === 'error') return [new MessageNode(group, 'error', s.message.split(/(?<=\.)\s/)[0], s.message)];
    if (s.items.length === 0) {
      const empty = group.kind === 'deployments' ? vscode.l10n.t('No deployments on this resource') : vscode.l10n.t('No webhook endpoints yet: click to create one');
      return [new MessageNode(group, 'empty', empty)];
    }
    const shown = s.items.slice(0, s.shown);
    const children: TreeNode[] =
      group.kind === 'deployments'
        ? shown.map((d) => new DeploymentNode(group as GroupNode, d as Deployment))
        : (shown as WebhookEndpoint[]).map((e) => {
            const id = group.connection.id;
            return new WebhookNode(group, e, this.store.hasSigningSecret(id, e.id), this.endpoints.rotationOf(id, e.id));
          });
    if (s.shown < s.items.length || s.hasMore) children.push(new MessageNode(group, 'more', vscode.l10n.t('Load more…'), undefined, s.items.length - s.shown || undefined));
    return children;
  }

  /** Fetches a group's first page (or the next one, `more`), showing progress on the view. */
  load(group: GroupNode, more: boolean): Promise<void> {
    if (group.kind === 'deployments') return this.loadDeployments(group, more);
    if (group.state.status === 'loading') return group.state.pending.then(() => undefined);
    const previous = group.state;
    const pending = Promise.resolve(
      vscode.window.withProgress({ location: { viewId: Views.resources } }, () => this.fetch(group, more && previous.status === 'loaded' ? previous : undefined)),
    )
      .then(
        (state) => {
          group.state = state;
        },
        (err: unknown) => {
          const message = errorText(err);
          logError(`${group.kind} of ${group.connection.label}: ${message}`);
          group.state = { status: 'error', message };
        },
      )
      .then(() => this.changed.fire(group));
    group.state = { status: 'loading', pending };
    this.changed.fire(group);
    return pending;
  }

  /** Listing gives every deployment at once (the catalog's); the tree reveals them a page at a time. */
  private loadDeployments(group: GroupNode, more: boolean): Promise<void> {
    const page = setting('pageSize');
    if (more) {
      group.shown = (group.shown ?? page) + page;
      this.changed.fire(group);
      return Promise.resolve();
    }
    const pending = Promise.resolve(vscode.window.withProgress({ location: { viewId: Views.resources } }, () => this.catalog.load(group.connection))).then(
      () => undefined,
      (err: unknown) => logError(`deployments of ${group.connection.label}: ${errorText(err)}`),
    );
    // The catalog tells when the list arrives; the Loading… row shows now.
    this.changed.fire(group);
    return pending;
  }

  private async fetch(group: GroupNode, previous?: Extract<LoadState, { status: 'loaded' }>) {
    const page = setting('pageSize');
    const client = await this.clients.get(group.connection);
    if (previous && previous.shown < previous.items.length) return { ...previous, shown: previous.shown + page } as const;
    const res = await client.listWebhookEndpointsPage({ after: previous?.cursor, limit: Math.min(page, 100) });
    const items = [...((previous?.items as WebhookEndpoint[]) ?? []), ...res.data];
    // Reading each secret tells the store which are kept; the rows then ask it.
    await Promise.all(res.data.map((e) => this.store.signingSecret(group.connection.id, e.id)));
    return { status: 'loaded', items, shown: items.length, cursor: res.last_id ?? res.data.at(-1)?.id ?? previous?.cursor, hasMore: res.has_more } as const;
  }

  /** Reloads one group, a connection's groups, or everything. */
  refresh(node?: TreeNode): void {
    if (!node) {
      for (const c of this.nodes.values()) this.reset(c);
      this.catalog.refresh();
      this.syncConnections();
      return;
    }
    if (node.type === 'connection') {
      this.reset(node);
      this.catalog.refresh(node.info.id);
      this.changed.fire(node);
    } else if (node.type === 'group' && node.kind === 'deployments') {
      // The catalog drops the list for every reader (the chat pickers too) and says so.
      node.shown = undefined;
      this.catalog.refresh(node.connection.id);
    } else if (node.type === 'group') {
      node.state = { status: 'idle' };
      this.changed.fire(node);
    } else if (node instanceof JobGroupNode) void this.jobs?.refresh(node);
  }

  private reset(c: ConnectionNode): void {
    c.deployments.shown = undefined;
    c.webhooks.state = { status: 'idle' };
    this.jobs?.refreshConnection(c.info.id);
  }

  /** For tests and commands: the group's children once its load has finished. */
  async settledChildren(group: GroupNode): Promise<TreeNode[]> {
    const s = this.stateOf(group);
    if (s.status === 'idle') await this.load(group, false);
    else if (s.status === 'loading') await s.pending;
    return this.getChildren(group);
  }

  dispose(): void {
    this.changed.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
