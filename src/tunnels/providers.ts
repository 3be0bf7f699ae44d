/** The tunnel providers: manual URL, localtunnel, Cloudflare quick tunnel, ngrok, Dev Tunnels. */
import * as l10n from '@vscode/l10n';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findOnPath, runTunnelProcess, TunnelError, type Prerequisites, type Tunnel, type TunnelProvider, type TunnelProviderId } from './tunnel';
import { openLocaltunnel } from './localtunnelClient';
import { cloudflaredAsset, downloadedCloudflaredPath, hasDownloadedCloudflared } from './cloudflaredDownload';
import { parseCloudflaredHostname, parseCloudflaredUrl, parseDevTunnelUrl, parseNgrokApi, parseNgrokLog, explainDevTunnelFailure, explainNgrokFailure } from './parsers';

/** Never ends by itself: the user forwards the port some other way. */
export class ManualTunnel implements TunnelProvider {
  readonly id = 'manual';
  readonly label = l10n.t('Manual URL');
  constructor(private readonly url: () => string | undefined) {}
  async check(): Promise<Prerequisites> {
    const url = this.url();
    if (!url) return { ok: false, message: l10n.t('Set "{0}" to the public HTTPS address that forwards to the listener.', 'aoaiWorkbench.tunnel.manualUrl') };
    try {
      const u = new URL(url);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
    } catch {
      return { ok: false, message: l10n.t('"{0}" is not a URL. Set "{1}" to an https:// address.', url, 'aoaiWorkbench.tunnel.manualUrl') };
    }
    return { ok: true };
  }
  async start(): Promise<Tunnel> {
    const check = await this.check();
    if (!check.ok) throw new TunnelError(check.message, { lasting: true });
    let stop!: () => void;
    const closed = new Promise<void>((r) => (stop = r));
    return { url: this.url()!.replace(/\/+$/, ''), closed, stop: async () => stop() };
  }
}

/**
 * A self-hosted localtunnel server builds public URLs without its port (it expects to sit behind
 * a proxy on 80/443). When the server itself listens on another port, that port is the public one.
 */
export function withServerPort(url: string, host: string | undefined): string {
  const u = new URL(url);
  if (host && !u.port) {
    const h = new URL(host);
    if (h.port && h.protocol === u.protocol) u.port = h.port;
  }
  return u.toString().replace(/\/+$/, '');
}

/** localtunnel: no account for the public loca.lt, or a self-hosted server. Its client is on npm. */
export class LocalTunnel implements TunnelProvider {
  readonly id = 'localtunnel';
  readonly label = 'localtunnel';
  constructor(private readonly options: () => { host?: string; subdomain?: string; localHost?: string }) {}
  async check(): Promise<Prerequisites> {
    return { ok: true };
  }
  async start(localPort: number, signal?: AbortSignal): Promise<Tunnel> {
    const o = this.options();
    const host = o.host || 'https://localtunnel.me';
    let tunnel: Tunnel;
    try {
      tunnel = await openLocaltunnel({ host, subdomain: o.subdomain, localPort, localHost: o.localHost ?? '127.0.0.1', signal });
    } catch (err) {
      if (signal?.aborted) throw new TunnelError(l10n.t('Cancelled.'));
      const failed = l10n.t('localtunnel could not open a tunnel via {0}: {1}.', host, (err as Error).message);
      throw new TunnelError(`${failed} ${l10n.t('Check the server address in "{0}".', 'aoaiWorkbench.tunnel.localtunnelHost')}`);
    }
    return { ...tunnel, url: withServerPort(tunnel.url, o.host) };
  }
}

/** A tunnel run by a CLI on PATH; subclasses say how to call it and read its URL. */
abstract class CliTunnel implements TunnelProvider {
  abstract readonly id: TunnelProviderId;
  abstract readonly label: string;
  /** What to install or sign in to when the CLI is missing. */
  protected abstract readonly missing: string;
  protected abstract run(binary: string, localPort: number, signal?: AbortSignal): Promise<Tunnel>;

  constructor(private readonly binary: () => Promise<string | undefined>) {}

  protected async extraCheck(): Promise<Prerequisites> {
    return { ok: true };
  }

  /** True when a missing CLI can be downloaded (with the user's consent). */
  protected canDownload = false;

  async check(): Promise<Prerequisites> {
    if (!(await this.binary())) return { ok: false, message: this.missing, canDownload: this.canDownload };
    return this.extraCheck();
  }

  async start(localPort: number, signal?: AbortSignal): Promise<Tunnel> {
    const check = await this.check();
    if (!check.ok) throw new TunnelError(check.message, { lasting: true });
    return this.run((await this.binary())!, localPort, signal);
  }
}

export class CloudflaredTunnel extends CliTunnel {
  readonly id = 'cloudflared';
  readonly label = l10n.t('Cloudflare quick tunnel');
  protected readonly missing = l10n.t(
    'cloudflared is not installed. Let the extension download it, or install it from Cloudflare ({0}) and make sure it is on PATH, or pick another tunnel in "{1}".',
    'https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/',
    'aoaiWorkbench.tunnel.provider',
  );
  /** `storageDir`: where a cloudflared downloaded with the user's consent is looked for after PATH. */
  constructor(storageDir?: string, pathEnv?: string) {
    super(async () => (await findOnPath('cloudflared', pathEnv)) ?? (storageDir && hasDownloadedCloudflared(storageDir) ? downloadedCloudflaredPath(storageDir) : undefined));
    this.canDownload = !!storageDir && cloudflaredAsset() !== undefined;
  }
  protected override async extraCheck(): Promise<Prerequisites> {
    if (existsSync(join(homedir(), '.cloudflared', 'config.yaml'))) {
      return { ok: false, message: l10n.t('Quick tunnels do not start while {0} exists. Rename that file while you use the listener, or pick another tunnel.', '~/.cloudflared/config.yaml') };
    }
    return { ok: true };
  }
  protected run(binary: string, localPort: number, signal?: AbortSignal): Promise<Tunnel> {
    const metricsPort = 20000 + Math.floor(Math.random() * 20000);
    return runTunnelProcess({
      command: binary,
      args: ['tunnel', '--no-autoupdate', '--url', `http://127.0.0.1:${localPort}`, '--metrics', `127.0.0.1:${metricsPort}`],
      findUrl: parseCloudflaredUrl,
      poll: async () => {
        const body = (await (await fetch(`http://127.0.0.1:${metricsPort}/quicktunnel`)).json()) as { hostname?: unknown };
        return parseCloudflaredHostname(body.hostname);
      },
      signal,
    });
  }
}

export class NgrokTunnel extends CliTunnel {
  readonly id = 'ngrok';
  readonly label = 'ngrok';
  protected readonly missing = l10n.t(
    'ngrok is not installed. Install the ngrok agent, run "{0}" once (an ngrok account is required), and make sure ngrok is on PATH.',
    'ngrok config add-authtoken <your token>',
  );
  constructor(binary = () => findOnPath('ngrok')) {
    super(binary);
  }
  protected run(binary: string, localPort: number, signal?: AbortSignal): Promise<Tunnel> {
    return runTunnelProcess({
      command: binary,
      args: ['http', String(localPort), '--log', 'stdout', '--log-format', 'json'],
      findUrl: parseNgrokLog,
      poll: async () => parseNgrokApi(await (await fetch('http://127.0.0.1:4040/api/tunnels')).text(), localPort),
      explainFailure: explainNgrokFailure,
      signal,
    });
  }
}

export class DevTunnel extends CliTunnel {
  readonly id = 'devtunnel';
  readonly label = 'Dev Tunnels';
  protected readonly missing = l10n.t(
    'The devtunnel CLI is not installed. Install it ({0}), sign in with "{1}", and make sure it is on PATH.',
    'https://aka.ms/devtunnels/cli',
    'devtunnel user login',
  );
  constructor(binary = () => findOnPath('devtunnel')) {
    super(binary);
  }
  protected run(binary: string, localPort: number, signal?: AbortSignal): Promise<Tunnel> {
    return runTunnelProcess({ command: binary, args: ['host', '-p', String(localPort), '--allow-anonymous'], findUrl: parseDevTunnelUrl, explainFailure: explainDevTunnelFailure, signal });
  }
}
