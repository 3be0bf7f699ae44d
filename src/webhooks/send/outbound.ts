/**
 * Outgoing webhook traffic (the emulator's deliveries, the listener's forwards, replays and test
 * events) goes through this dispatcher. Names under `.localhost` are loopback (RFC 6761), as
 * browsers and curl treat them, so `http://myapp.localhost:3000` works as a forward target and a
 * self-hosted tunnel on loopback works as a public URL; glibc does not resolve them by itself.
 */
import type { Dispatcher } from 'undici';
import { loopbackLookup } from '../../service/loopback';
import { NodeDispatcher } from '../../service/nodeDispatcher';
import { ProxyRouter, type ProxySettings } from '../../service/proxy';

export const webhookDispatcher: Dispatcher = new NodeDispatcher({ connectTimeoutMs: 10_000, keepAliveMs: 4_000, lookup: loopbackLookup });

/**
 * The extension's webhook traffic (forwards, replays, test events, the verifier check) through the
 * user's proxy where its rules say so; loopback and `.localhost` names always go direct.
 */
export function webhookOutbound(proxy: ProxySettings = {}): Dispatcher {
  return new ProxyRouter(proxy, { connectTimeoutMs: 10_000 }, webhookDispatcher);
}
