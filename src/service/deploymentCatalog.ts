/**
 * The deployments of every connection, listed once and read by all: the sidebar shows them all,
 * the chat panel's picker and VS Code's model picker offer those that can chat. One owner, one
 * change event, so a Refresh, a new key or a sign-in change reaches every reader at once. It sits
 * with the connections it lists (the window's `ConnectionCatalog` keeps it in step with the
 * connection store); which deployments can chat is the chat's to say (`canChat`).
 */
import { Emitter, type Event } from './emitter';
import type { Deployment } from './types';

export interface CatalogConnection {
  readonly id: string;
}

/** What a reader sees of one connection's list. */
export type DeploymentList =
  | { status: 'idle' }
  | { status: 'loading'; pending: Promise<unknown> }
  | { status: 'loaded'; items: readonly Deployment[] }
  | { status: 'error'; error: unknown };

export interface DeploymentCatalogOptions<C extends CatalogConnection> {
  /** The connections as they are now. */
  connections: () => readonly C[];
  /** Lists a connection's deployments from the service. */
  list: (conn: C) => Promise<Deployment[]>;
  /** Whether the chats can use a deployment (the chat core's `isChatDeployment`). */
  canChat: (deployment: Deployment) => boolean;
  /** How long a list (or a failure) answers `deployments()`: VS Code asks for its models often. */
  maxAgeMs?: number;
  now?: () => number;
}

export interface ChatDeployment<C> {
  connection: C;
  deployment: Deployment;
}

interface Entry {
  /** The connection as it was listed: a changed connection (endpoint, auth) lists afresh. */
  readonly key: string;
  at: number;
  items?: readonly Deployment[];
  error?: { reason: unknown };
  pending?: Promise<readonly Deployment[]>;
}

const keyOf = (conn: CatalogConnection) => JSON.stringify(conn);

export class DeploymentCatalog<C extends CatalogConnection> {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<string | undefined>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(private readonly options: DeploymentCatalogOptions<C>) {
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Fires when a list arrives or fails, and when lists are dropped (read them again then): the id
   * of the connection whose list changed, undefined when every list was dropped.
   */
  readonly onDidChange: Event<string | undefined> = this.changed.event;

  private entry(conn: C): Entry | undefined {
    const e = this.entries.get(conn.id);
    return e?.key === keyOf(conn) ? e : undefined;
  }

  /** The list as it stands, without loading anything (the sidebar draws from it). */
  state(conn: C): DeploymentList {
    const e = this.entry(conn);
    if (e?.items) return { status: 'loaded', items: e.items };
    if (e?.pending) return { status: 'loading', pending: e.pending.catch(() => undefined) };
    if (e?.error) return { status: 'error', error: e.error.reason };
    return { status: 'idle' };
  }

  /** The list, loading it if there is none yet; a failure stays until `refresh`. */
  load(conn: C): Promise<readonly Deployment[]> {
    const e = this.entry(conn);
    if (e?.items) return Promise.resolve(e.items);
    if (e?.pending) return e.pending;
    if (e?.error) return Promise.reject(e.error.reason);
    return this.start(conn);
  }

  /** The list, listed afresh once older than the maximum age (a failure too). */
  deployments(conn: C): Promise<readonly Deployment[]> {
    const e = this.entry(conn);
    if (e?.pending) return e.pending;
    if (e && this.now() - e.at < this.maxAgeMs) return this.load(conn);
    return this.start(conn, e?.items);
  }

  /** The deployments a user can chat with: chat models, ready, on an API the chat speaks. */
  async chatDeployments(conn: C): Promise<Deployment[]> {
    return (await this.deployments(conn)).filter(this.options.canChat);
  }

  /** Every connection's chat deployments; one connection's failure (`failed`) hides none of the others. */
  async everyChatDeployment(failed: (conn: C, reason: unknown) => void): Promise<ChatDeployment<C>[]> {
    const lists = await Promise.all(
      this.options.connections().map(async (connection) => {
        try {
          return (await this.chatDeployments(connection)).map((deployment) => ({ connection, deployment }));
        } catch (reason) {
          failed(connection, reason);
          return [];
        }
      }),
    );
    return lists.flat();
  }

  /** Drops one connection's list, or every list: the next reader lists afresh. */
  refresh(connectionId?: string): void {
    if (connectionId === undefined) this.entries.clear();
    else this.entries.delete(connectionId);
    this.changed.fire(connectionId);
  }

  /** Drops the lists of connections that were removed or changed. */
  prune(): void {
    const current = new Map(this.options.connections().map((c) => [c.id, keyOf(c)]));
    for (const [id, e] of [...this.entries]) if (current.get(id) !== e.key) this.refresh(id);
  }

  /** Lists afresh; a reload keeps showing the list it replaces until it settles. */
  private start(conn: C, items?: readonly Deployment[]): Promise<readonly Deployment[]> {
    const entry: Entry = { key: keyOf(conn), at: this.now(), items };
    const pending = this.options.list(conn).then(
      (listed) => {
        this.settle(conn.id, entry, { items: listed });
        return listed;
      },
      (reason: unknown) => {
        this.settle(conn.id, entry, { error: { reason } });
        throw reason;
      },
    );
    entry.pending = pending;
    this.entries.set(conn.id, entry);
    return pending;
  }

  /** A list that arrives after a refresh or a change of its connection is someone else's: dropped. */
  private settle(id: string, entry: Entry, outcome: Pick<Entry, 'items' | 'error'>): void {
    if (this.entries.get(id) !== entry) return;
    this.entries.set(id, { key: entry.key, at: this.now(), ...outcome });
    this.changed.fire(id);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
