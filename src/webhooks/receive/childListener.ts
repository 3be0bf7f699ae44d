/**
 * The webhook listener in a process of its own (childMain.ts), as the extension host uses it: forked
 * on the first listen with its heap bounded, so a burst of deliveries grows the child, not the
 * host's isolate that every extension shares, and a flood or a fault on the public port cannot
 * stall or crash the host. The host stays the owner of what is kept: each verdict arrives here
 * (batched) and goes to `onDelivery`; the host says where each verified delivery goes; a loopback
 * app gets it from the child, any other target through the host's own transport (VS Code's network
 * support). Secrets go over the IPC channel only. The child ends with the host (it exits when the
 * channel closes); a child that ends on its own is reported through `onDidFail`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Emitter, type Event } from '../../service/emitter';
import type { Transport } from '../../service/transport';
import { forwardDelivery } from '../send/forward';
import { isLoopbackUrl } from '../send/forwardUrl';
import type { Route } from '../send/routes';
import type { ListenerHandle, ListenerWiring } from '../session/types';
import { Delivered } from '../store/delivered';
import type { ForwardResult } from '../store/records';
import type { ChildBatch, ChildListenerSettings, FromChild, RouteAnswer, ToChild } from './childProtocol';

export type { ChildListenerSettings } from './childProtocol';

/**
 * The child's heap: a young generation of 1 MB semi-spaces (a burst is scavenged often and cheaply,
 * and never grows it past that) and an old space that holds the dedupe window and the server with
 * room to spare; past it, the child dies and is reported, the host goes on.
 */
export const CHILD_HEAP_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=128'];
/** How long a stopping child may take to hand over what it answered before it is killed. */
const STOP_TIMEOUT_MS = 20_000;
/** Verified deliveries waiting for the answer of a forward the host makes (bounded like the child's own). */
const MAX_PENDING = 2_000;

export interface ChildListenerOptions extends ChildListenerSettings {
  /** How forwards to a non-loopback app go out (the user's proxy, VS Code's network support). */
  outbound?: () => Transport;
  /** The child's script: dist/webhook-listener.js beside the bundle this runs from, by default. */
  entry?: string;
  /** More flags for the child's Node (tests: `--import tsx`), after the heap bounds. */
  execArgv?: string[];
}

export class ChildListener implements ListenerHandle {
  url = '';
  port = 0;
  private child: ChildProcess | undefined;
  private stopping = false;
  private stopped: (() => void) | undefined;
  private secretsRun = 0;
  private readonly acks = new Map<number, () => void>();
  /** Verified deliveries with a route, until their forward's answer: the record and where it went. */
  private readonly pending = new Map<string, { record: Delivered; route: Route }>();
  /** The end of what the child wrote to stderr (a crash's stack), for the report. */
  private stderrTail = '';
  private readonly failed = new Emitter<Error>();
  /** The child ended while listening (crashed, killed, out of memory): listening has stopped. */
  readonly onDidFail: Event<Error> = this.failed.event;

  constructor(
    private readonly wiring: ListenerWiring,
    private readonly options: ChildListenerOptions = {},
  ) {}

  /** The child's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<string> {
    // The child's window starts from the ids on disk: the ones just added included.
    await this.wiring.dedupe.flush?.();
    const { outbound: _outbound, entry, execArgv, ...settings } = this.options;
    const child = fork(entry ?? join(__dirname, 'webhook-listener.js'), [], {
      execArgv: [...CHILD_HEAP_FLAGS, ...(execArgv ?? [])],
      // In desktop VS Code `process.execPath` is Electron's binary: this makes it run the script as
      // Node, as language clients' forks do (plain Node, as in code-server, ignores it).
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Records cross as their JSON bytes (see ChildBatch), not as objects parsed again here.
      serialization: 'advanced',
    });
    this.child = child;
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (this.stderrTail = (this.stderrTail + d).slice(-1500)));
    return new Promise<string>((resolve, reject) => {
      let listening = false;
      child.on('message', (m: FromChild) => {
        if (m.t === 'listening') {
          listening = true;
          this.url = m.url;
          this.port = m.port;
          resolve(m.url);
        } else if (m.t === 'failed') reject(Object.assign(new Error(m.message), { code: m.code }));
        else this.receive(m);
      });
      child.on('error', (err) => {
        if (!listening) reject(err);
      });
      child.on('exit', (code, signal) => {
        this.ended();
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        const tail = this.stderrTail.trim() ? `: ${this.stderrTail.trim().split('\n').slice(-3).join(' ')}` : '';
        if (!listening) reject(new Error(`The webhook listener's process ended before it listened (${how})${tail}`));
        else if (!this.stopping) this.failed.fire(new Error(`The webhook listener's process ended unexpectedly (${how})${tail}`));
      });
      const ids = this.wiring.dedupe.ids?.() ?? [];
      this.post({ t: 'start', settings, secrets: this.wiring.secrets(), ids });
    });
  }

  /** Sends the secrets as they are now; resolves once the child verifies with them. */
  secretsChanged(): Promise<void> {
    if (!this.child?.connected) return Promise.resolve();
    const n = ++this.secretsRun;
    return new Promise<void>((resolve) => {
      this.acks.set(n, resolve);
      this.post({ t: 'secrets', n, secrets: this.wiring.secrets() });
    });
  }

  /** Resolves once every delivery the child answered has been handed over (forwards under way still report). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.stopping) return;
    this.stopping = true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      this.stopped = () => {
        clearTimeout(timer);
        resolve();
      };
      this.post({ t: 'stop' });
    });
  }

  get running(): boolean {
    return !!this.child && !this.stopping;
  }

  private post(m: ToChild): void {
    // A callback: a channel closed meanwhile (the child died) is reported by 'exit', not thrown here.
    if (this.child?.connected) this.child.send(m, () => undefined);
  }

  private receive(m: Exclude<FromChild, { t: 'listening' | 'failed' }>): void {
    if (m.t === 'stopped') this.stopped?.();
    else if (m.t === 'secrets') {
      for (const [n, ack] of this.acks) if (n <= m.n) (this.acks.delete(n), ack());
    } else this.batch(m);
  }

  private batch(m: ChildBatch): void {
    const routes: RouteAnswer[] = [];
    const bytes = m.bytes ? Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength) : Buffer.alloc(0);
    let at = 0;
    for (const fields of m.delivered) {
      const record = new Delivered(fields, bytes.subarray(at, (at += fields.bytes)));
      // The host's ids are the ones kept on disk: a redelivery after a restart is still a duplicate.
      if (record.verdict === 'verified' && record.webhookId !== undefined) this.wiring.dedupe.add(record.webhookId);
      try {
        if (this.wiring.onDelivered) this.wiring.onDelivered(record);
        else this.wiring.onDelivery(record.record());
      } catch {
        /* a listener of ours must not stop the others */
      }
      if (record.verdict !== 'verified') continue;
      const route = this.wiring.forwardTo(record);
      // Held until the app answers: bytes of its own, so the batch's can go.
      if (route) this.pending.set(record.id, { record: record.own(), route });
      if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
      routes.push(route ? { id: record.id, route, direct: isLoopbackUrl(route.url) } : { id: record.id });
    }
    if (routes.length) this.post({ t: 'routes', routes });
    for (const f of m.forwarded) this.forwarded(f.id, f.forward);
    for (const h of m.here) {
      const p = this.pending.get(h.id);
      if (!p) continue;
      const body = Buffer.from(h.body, 'base64');
      const outbound = this.options.outbound?.();
      void forwardDelivery({ url: p.route.url, route: p.route.pattern, headers: h.headers, body, outbound }).then((f) => this.forwarded(h.id, f));
    }
  }

  private forwarded(id: string, forward: ForwardResult): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    try {
      this.wiring.onForwarded(p.record.record(), forward);
    } catch {
      /* ignore */
    }
  }

  private ended(): void {
    this.child = undefined;
    this.stopped?.();
    for (const ack of this.acks.values()) ack();
    this.acks.clear();
    this.pending.clear();
  }
}
