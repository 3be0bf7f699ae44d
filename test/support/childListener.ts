/** The listener in its own process, as the extension runs it, from the TypeScript source (tsx in the child). */
import { resolve } from 'node:path';
import { ChildListener, type ChildListenerOptions } from '../../src/webhooks/receive/childListener';
import type { ListenerOptions } from '../../src/webhooks/receive/listener';
import type { ListenerWiring } from '../../src/webhooks/session/types';

export const CHILD_ENTRY = resolve(__dirname, '../../src/webhooks/receive/childMain.ts');
export const CHILD_EXEC_ARGV = ['--import', 'tsx'];

export function childListener(wiring: ListenerWiring, options: ChildListenerOptions = {}): ChildListener {
  return new ChildListener(wiring, { entry: CHILD_ENTRY, execArgv: CHILD_EXEC_ARGV, ...options });
}

/**
 * A listener made with the in-process listener's options, run in a child as the extension runs it:
 * the network-side suites (floods, limits, slow senders, the wire) test the process users get.
 * The secrets are read when it starts (the host tells a running child of changes: see Listening).
 */
export function listenerInChild(o: ListenerOptions): ChildListener {
  const { secrets, dedupe, forwardTo, onDelivery, onForwarded, outbound, keepForForward: _keep, ...settings } = o;
  const ids = new Set<string>();
  const wiring: ListenerWiring = {
    secrets,
    dedupe: dedupe ?? { has: (id) => ids.has(id), add: (id) => void ids.add(id), ids: () => [...ids] },
    forwardTo: (r) => {
      const t = forwardTo?.(r);
      return typeof t === 'string' ? { url: t } : t;
    },
    onDelivery: (r) => onDelivery?.(r),
    onForwarded: (r, f) => onForwarded?.(r, f),
  };
  return childListener(wiring, { ...settings, outbound });
}
