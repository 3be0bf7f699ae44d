/**
 * One interface for every way to expose the local listener publicly. The service delivers only
 * to public HTTPS URLs, so a tunnel fronts 127.0.0.1; the signature check stays the only access
 * control, since a tunnel URL is public.
 */
import * as l10n from '@vscode/l10n';
import { spawn, type ChildProcess } from 'node:child_process';
import { access } from 'node:fs/promises';
import { constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export type TunnelProviderId = 'manual' | 'localtunnel' | 'cloudflared' | 'ngrok' | 'devtunnel';

/** `canDownload`: the missing program can be fetched into the extension's storage, if the user agrees. */
export type Prerequisites = { ok: true } | { ok: false; message: string; canDownload?: boolean };

export interface Tunnel {
  /** The public base URL (no trailing slash). */
  url: string;
  /** Settles when the tunnel ends (stopped, or the process/connection died). */
  closed: Promise<void>;
  stop(): Promise<void>;
}

export interface TunnelProvider {
  readonly id: TunnelProviderId;
  readonly label: string;
  /** Says exactly what to install or sign in to when something is missing. */
  check(): Promise<Prerequisites>;
  start(localPort: number, signal?: AbortSignal): Promise<Tunnel>;
}

export class TunnelError extends Error {
  override readonly name = 'TunnelError';
  /** Trying again cannot help until the user acts (the program is gone, a setting is wrong). */
  readonly lasting: boolean;
  constructor(message: string, o: { lasting?: boolean } = {}) {
    super(message);
    this.lasting = o.lasting ?? false;
  }
}

/**
 * Whether trying again cannot help. Read from the error, not by `instanceof`: the tunnels and the
 * code that keeps them open load in different bundles, each with its own copy of the class.
 */
export function isLasting(err: unknown): boolean {
  return err instanceof Error && (err as Partial<TunnelError>).lasting === true;
}

/** The executable on PATH, if any. */
export async function findOnPath(name: string, pathEnv = process.env.PATH ?? ''): Promise<string | undefined> {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of pathEnv.split(delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const p = join(dir, name + ext);
      try {
        await access(p, constants.X_OK);
        return p;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}

/**
 * Runs a tunnel CLI and waits until `findUrl` sees its public URL in the output (or `poll`
 * finds it), within `timeoutMs`. The process is stopped with the tunnel: no orphans.
 */
export function runTunnelProcess(opts: {
  command: string;
  args: string[];
  findUrl: (output: string) => string | undefined;
  poll?: () => Promise<string | undefined>;
  explainFailure?: (output: string) => string | undefined;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}): Promise<Tunnel> {
  const child: ChildProcess = spawn(opts.command, opts.args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
  let output = '';
  const closed = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 3000);
    await closed;
    clearTimeout(t);
  };
  return new Promise<Tunnel>((resolve, reject) => {
    let done = false;
    const finish = (err?: Error, url?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poller);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) {
        void stop();
        reject(err);
      } else resolve({ url: url!.replace(/\/+$/, ''), closed, stop });
    };
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.length > 200_000) output = output.slice(-100_000);
      const url = opts.findUrl(output);
      if (url) finish(undefined, url);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (err) => finish(new TunnelError(l10n.t('Could not run {0}: {1}', opts.command, err.message))));
    child.once('exit', (code) => {
      const printed = output.trim().slice(-500) || l10n.t('(none)');
      finish(new TunnelError(opts.explainFailure?.(output) ?? l10n.t('{0} exited ({1}) before it gave a public URL. Its output: {2}', opts.command, String(code), printed)));
    });
    const seconds = (opts.timeoutMs ?? 30_000) / 1000;
    const timer = setTimeout(
      () => finish(new TunnelError(opts.explainFailure?.(output) ?? l10n.t('{0} gave no public URL within {1} s.', opts.command, seconds))),
      opts.timeoutMs ?? 30_000,
    );
    const poller = setInterval(() => {
      void opts.poll?.().then((url) => url && finish(undefined, url), () => undefined);
    }, 500);
    const onAbort = () => finish(new TunnelError(l10n.t('Cancelled.')));
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
