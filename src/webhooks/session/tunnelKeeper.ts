/**
 * Keeps a tunnel open: when it ends by itself (its process exited, its server dropped it) it is
 * opened again, after a growing pause, a bounded number of times. The keeper owns the tunnel's
 * health and says each change, and when a reopened tunnel has a new public URL.
 */
import * as l10n from '@vscode/l10n';
import { isLasting, type Tunnel, type TunnelProvider } from '../../tunnels/tunnel';
import { Emitter, type Event } from '../../service/emitter';

export type TunnelHealth =
  | { kind: 'open'; url: string }
  /** Attempt `attempt` of `attempts` is waiting or running; `reason`: why the last one ended or failed. */
  | { kind: 'reopening'; attempt: number; attempts: number; reason: string }
  /**
   * Every attempt failed, or one failed in a way no later attempt can mend (the program is gone):
   * the tunnel stays down until the user starts listening again. `attempts`: how many were made.
   */
  | { kind: 'failed'; attempts: number; reason: string }
  | { kind: 'stopped' };

export interface TunnelMove {
  previous: string;
  url: string;
}

/**
 * Pauses before each attempt: a server that restarts is back within seconds, one that is down
 * for longer is not hammered; about 70 s in all before the keeper gives up.
 */
const REOPEN_DELAYS_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class TunnelKeeper {
  private tunnel: Tunnel;
  private health: TunnelHealth;
  private readonly stopping = new AbortController();
  private readonly healthChanged = new Emitter<TunnelHealth>();
  private readonly moved = new Emitter<TunnelMove>();
  /** Open, reopening (each attempt), failed, or stopped. */
  readonly onDidChangeHealth: Event<TunnelHealth> = this.healthChanged.event;
  /** A reopened tunnel got another public URL (fired before the health says it is open). */
  readonly onDidChangeUrl: Event<TunnelMove> = this.moved.event;

  private constructor(
    private readonly provider: TunnelProvider,
    private readonly localPort: number,
    first: Tunnel,
    private readonly delays: readonly number[],
  ) {
    this.tunnel = first;
    this.health = { kind: 'open', url: first.url };
    this.watch(first);
  }

  /** Opens the first tunnel (its failure is the caller's to show); later ones are the keeper's. */
  static async open(provider: TunnelProvider, localPort: number, o: { signal?: AbortSignal; delaysMs?: readonly number[] } = {}): Promise<TunnelKeeper> {
    const first = await provider.start(localPort, o.signal);
    return new TunnelKeeper(provider, localPort, first, o.delaysMs ?? REOPEN_DELAYS_MS);
  }

  /** The public URL of the tunnel open now, or of the last one that was. */
  get url(): string {
    return this.tunnel.url;
  }

  get state(): TunnelHealth {
    return this.health;
  }

  private set(health: TunnelHealth): void {
    this.health = health;
    this.healthChanged.fire(health);
  }

  private watch(tunnel: Tunnel): void {
    void tunnel.closed.then(() => {
      if (this.tunnel === tunnel && !this.stopping.signal.aborted) void this.reopen();
    });
  }

  private async reopen(): Promise<void> {
    const signal = this.stopping.signal;
    let reason = l10n.t('it closed');
    // Whatever is left of the old one (a process still exiting) goes first.
    await this.tunnel.stop().catch(() => undefined);
    // Stopped meanwhile: 'stopped' was said already, and nothing is reopened.
    if (signal.aborted) return;
    for (let attempt = 1; attempt <= this.delays.length; attempt++) {
      this.set({ kind: 'reopening', attempt, attempts: this.delays.length, reason });
      await pause(this.delays[attempt - 1], signal);
      if (signal.aborted) return;
      let next: Tunnel;
      try {
        next = await this.provider.start(this.localPort, signal);
      } catch (err) {
        if (signal.aborted) return;
        reason = (err as Error).message;
        if (isLasting(err)) return this.set({ kind: 'failed', attempts: attempt, reason });
        continue;
      }
      if (signal.aborted) return void (await next.stop().catch(() => undefined));
      const previous = this.tunnel.url;
      this.tunnel = next;
      if (next.url !== previous) this.moved.fire({ previous, url: next.url });
      this.set({ kind: 'open', url: next.url });
      this.watch(next);
      return;
    }
    this.set({ kind: 'failed', attempts: this.delays.length, reason });
  }

  /** Stops the tunnel and any attempt under way; nothing is reopened after this. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    await this.tunnel.stop().catch(() => undefined);
    this.set({ kind: 'stopped' });
    this.healthChanged.dispose();
    this.moved.dispose();
  }
}
