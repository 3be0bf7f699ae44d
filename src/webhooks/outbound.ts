/**
 * Outgoing webhook traffic (the emulator's deliveries, the listener's forwards, replays and test
 * events) goes through this dispatcher. Names under `.localhost` are loopback (RFC 6761), as
 * browsers and curl treat them, so `http://myapp.localhost:3000` works as a forward target and a
 * self-hosted tunnel on loopback works as a public URL; glibc does not resolve them by itself.
 */
import { lookup } from 'node:dns';
import { Agent, type Dispatcher } from 'undici';
import { ProxyRouter, type ProxySettings } from '../service/proxy';

export const webhookDispatcher = new Agent({
  connect: {
    lookup: ((hostname: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
      if (!/(^|\.)localhost$/i.test(hostname)) return lookup(hostname, options as never, cb as never);
      if (options?.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
      else cb(null, '127.0.0.1', 4);
    }) as never,
  },
});

/**
 * The extension's webhook traffic (forwards, replays, test events, the verifier check) through the
 * user's proxy where its rules say so; loopback and `.localhost` names always go direct.
 */
export function webhookOutbound(proxy: ProxySettings = {}): Dispatcher {
  return new ProxyRouter(proxy, { connectTimeoutMs: 10_000 }, webhookDispatcher);
}
