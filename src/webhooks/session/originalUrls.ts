/**
 * The URL a webhook endpoint had before a debug session pointed it at the listener, kept (in the
 * host's global state: a URL, never a secret) from before the change until it is put back. A
 * crash or a reload in between leaves the endpoint on a dead tunnel URL: what is still kept here
 * at start-up is offered back to the user.
 */

/** The part of VS Code's Memento this needs. */
export interface KeyValueState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface KeptUrl {
  connectionId: string;
  endpointId: string;
  url: string;
  /** When it was kept (ms). */
  at: number;
  /** The process (an extension host: one per window) whose session changed it. */
  owner?: number;
}

export interface OriginalUrls {
  /** Keeps `url` as the endpoint's original, unless one is kept already (the first original wins); returns the kept one. */
  keep(connectionId: string, endpointId: string, url: string): Promise<string>;
  forget(connectionId: string, endpointId: string): Promise<void>;
}

const KEY = 'aoaiWorkbench.webhookOriginalUrls';
/** Entries kept at most: a bound on global state, whatever happens. */
const MAX_KEPT = 50;

export class KeptOriginalUrls implements OriginalUrls {
  constructor(
    private readonly state: KeyValueState,
    private readonly now: () => number = Date.now,
    private readonly owner: number = process.pid,
  ) {}

  /** What is kept now: after a crash, the endpoints left pointing at a listener that is gone. */
  list(): KeptUrl[] {
    const all = this.state.get<unknown>(KEY);
    return Array.isArray(all) ? all.filter(isKept) : [];
  }

  /** What windows that are gone left changed (their process ended: a crash, a reload, a closed window). */
  orphans(isAlive: (pid: number) => boolean = processAlive): KeptUrl[] {
    return this.list().filter((k) => k.owner === undefined || (k.owner !== this.owner && !isAlive(k.owner)));
  }

  async keep(connectionId: string, endpointId: string, url: string): Promise<string> {
    const all = this.list();
    const held = all.find((k) => k.connectionId === connectionId && k.endpointId === endpointId);
    if (held) return held.url;
    await this.state.update(KEY, [...all, { connectionId, endpointId, url, at: this.now(), owner: this.owner }].slice(-MAX_KEPT));
    return url;
  }

  async forget(connectionId: string, endpointId: string): Promise<void> {
    const all = this.list();
    const left = all.filter((k) => k.connectionId !== connectionId || k.endpointId !== endpointId);
    if (left.length !== all.length) await this.state.update(KEY, left.length ? left : undefined);
  }
}

function isKept(v: unknown): v is KeptUrl {
  const k = v as KeptUrl;
  return !!k && typeof k.connectionId === 'string' && typeof k.endpointId === 'string' && typeof k.url === 'string' && typeof k.at === 'number';
}

/** Whether a process still runs (signal 0 only asks; EPERM: it runs as someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: another user's process, which a test running as root never meets
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
