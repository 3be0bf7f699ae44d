/**
 * Outgoing webhook traffic (the emulator's deliveries, the listener's forwards, replays and test
 * events) goes through a transport (src/service/proxy.ts). Names under `.localhost` are loopback
 * (RFC 6761), as browsers and curl treat them, so `http://myapp.localhost:3000` works as a forward
 * target and a self-hosted tunnel on loopback works as a public URL; glibc does not resolve them
 * by itself, so the transport pins them to 127.0.0.1.
 */
import { NodeTransport } from '../../service/nodeTransport';
import { transportFor, type ProxySettings } from '../../service/proxy';
import type { Transport } from '../../service/transport';

const OPTIONS = { connectTimeoutMs: 10_000, keepAliveMs: 4_000 };

/** Straight to the target, whatever the environment says: the emulator's deliveries, and the default. */
export const webhookTransport: Transport = new NodeTransport({}, OPTIONS, {});

/**
 * The extension's webhook traffic (forwards, replays, test events, the verifier check): inside
 * VS Code through its network support, else through the user's proxy where its rules say so;
 * loopback and `.localhost` names always go direct.
 */
export function webhookOutbound(proxy: ProxySettings = {}): Transport {
  return transportFor(proxy, OPTIONS);
}
