/**
 * The local emulator of the service: real HTTP on loopback, answering like Azure OpenAI.
 * `startEmulator()` is what tests, `npm start` and the CLI use.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveConfig, type EmulatorConfig } from './config';
import type { Delivery } from './deliveries';
import type { Route, RouteContext } from './router';
import { catalogRoutes } from './routes/catalog';
import { chatRoutes } from './routes/chat';
import { fileRoutes } from './routes/files';
import { batchRoutes } from './routes/batches';
import { fineTuningRoutes } from './routes/fineTuning';
import { armDeploymentRoutes } from './routes/armDeployments';
import { callRoutes } from './routes/calls';
import { responseRoutes } from './routes/responses';
import { webhookRoutes } from './routes/webhookEndpoints';
import { EmulatorState, type EmulatorStats } from './state';
import { EntraValidator, type Authenticated, type Plane } from './entra';
import { HttpError, azureError, notFound, parseJsonObject, readBody, sendJson, unauthorized } from './wire';

export interface EmulatorOptions {
  /** 0 (default) takes a free port. */
  port?: number;
  host?: string;
  /** Random unless given. */
  apiKey?: string;
  config?: Partial<EmulatorConfig>;
  /** One line per request and per delivery attempt; silent by default. */
  log?: (line: string) => void;
}

export interface Emulator {
  url: string;
  apiKey: string;
  config: EmulatorConfig;
  stats: EmulatorStats;
  deliveries(): Delivery[];
  close(): Promise<void>;
}

const ROUTES: Route[] = [
  ...chatRoutes,
  ...responseRoutes,
  ...webhookRoutes,
  ...catalogRoutes,
  ...fileRoutes,
  ...batchRoutes,
  ...fineTuningRoutes,
  ...armDeploymentRoutes,
  ...callRoutes,
];

function wellEncoded(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function sameSecret(given: string, expected: Buffer): boolean {
  const g = Buffer.from(given);
  return g.length === expected.length && timingSafeEqual(g, expected);
}

const keyDisabled = () => azureError(403, 'AuthenticationTypeDisabled', 'Key based authentication is disabled for this resource.');

/**
 * The data plane takes `api-key: K`, `Authorization: Bearer K` (what OpenAI-style clients send
 * with a key), or a Bearer access token the configured issuer signed for it. Resource Manager
 * takes access tokens only. `error` unset: allowed.
 */
async function authenticate(
  req: IncomingMessage,
  key: Buffer,
  config: EmulatorConfig,
  validator: EntraValidator | undefined,
  plane: Plane,
  path: string,
): Promise<Authenticated> {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth)?.[1].trim() : undefined;
  if (plane === 'management') {
    if (!bearer) return { error: azureError(401, 'AuthenticationFailed', "Authentication failed. The 'Authorization' header is missing.") };
    return validator ? validator.check(bearer, plane, `${req.method} ${path}`) : { error: azureError(401, 'InvalidAuthenticationToken', 'The access token is invalid.') };
  }
  const apiKey = req.headers['api-key'];
  if (typeof apiKey === 'string') {
    if (!sameSecret(apiKey, key)) return { error: unauthorized() };
    return config.disableLocalAuth ? { error: keyDisabled() } : {};
  }
  if (!bearer) return { error: unauthorized() };
  if (sameSecret(bearer, key)) return config.disableLocalAuth ? { error: keyDisabled() } : {};
  if (validator) return validator.check(bearer, plane, `${req.method} ${path}`);
  return { error: unauthorized() };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const config = resolveConfig(options.config);
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  const key = Buffer.from(apiKey);
  const log = options.log ?? (() => {});
  const state = new EmulatorState(config, log);
  const validator = config.entra ? new EntraValidator(config.entra, log) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse, baseHeaders: Record<string, string>): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    // Routes decode their ids: a broken %-escape is the caller's error, not ours.
    if (!wellEncoded(path)) throw azureError(400, 'BadRequest', 'The request path is not valid: it has a malformed percent-encoding.');
    const matches = ROUTES.map((r) => ({ r, m: r.path.exec(path) })).filter((x) => x.m);
    if (matches.length === 0) throw notFound();
    const { error: denied, roleless } = await authenticate(req, key, config, validator, /^\/subscriptions(\/|$)/i.test(path) ? 'management' : 'data', path);
    if (denied) {
      req.resume();
      throw denied;
    }
    const hit = matches.find((x) => x.r.method === req.method);
    if (!hit) {
      const allow = [...new Set(matches.map((x) => x.r.method))].join(', ');
      throw new HttpError(405, { error: { code: 'MethodNotAllowed', message: `${req.method} is not supported here. Allowed: ${allow}.` } }, { allow });
    }
    let body: Promise<Record<string, unknown>> | undefined;
    const ctx: RouteContext = {
      req,
      res,
      url,
      state,
      baseHeaders,
      roleless,
      json: () => (body ??= readBody(req, config.maxBodyBytes).then((raw) => parseJsonObject(req, raw))),
    };
    await hit.r.handler(ctx, hit.m!.slice(1));
  };

  const server = createServer((req, res) => {
    const t0 = Date.now();
    state.stats.requests++;
    const baseHeaders = { 'apim-request-id': randomUUID(), 'x-ms-region': 'Emulator' };
    res.on('finish', () => log(`${req.method} ${req.url?.split('?')[0]} ${res.statusCode} ${Date.now() - t0}ms`));
    handle(req, res, baseHeaders).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) {
        sendJson(res, err.status, err.body, { ...baseHeaders, ...err.headers });
      } else {
        log(`internal error: ${(err as Error)?.stack ?? err}`);
        sendJson(res, 500, { error: { code: 'InternalServerError', message: 'The emulator failed while processing the request.' } }, baseHeaders);
      }
      // A body we did not read (413, auth failure) must not keep the socket busy.
      if (!req.complete) req.on('end', () => {}).resume();
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 30_000;

  // Rejects with the listen error (a port in use).
  await once(server.listen(options.port ?? 0, options.host ?? '127.0.0.1'), 'listening');
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  state.url = `http://${host}:${addr.port}`;

  return {
    url: state.url,
    apiKey,
    config,
    stats: state.stats,
    deliveries: () => state.deliverer.list(),
    close: () =>
      new Promise<void>((resolve) => {
        state.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
