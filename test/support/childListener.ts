/** The listener in its own process, as the extension runs it, from the TypeScript source (tsx in the child). */
import { resolve } from 'node:path';
import { ChildListener, type ChildListenerOptions } from '../../src/webhooks/receive/childListener';
import type { ListenerWiring } from '../../src/webhooks/session/types';

export const CHILD_ENTRY = resolve(__dirname, '../../src/webhooks/receive/childMain.ts');
export const CHILD_EXEC_ARGV = ['--import', 'tsx'];

export function childListener(wiring: ListenerWiring, options: ChildListenerOptions = {}): ChildListener {
  return new ChildListener(wiring, { entry: CHILD_ENTRY, execArgv: CHILD_EXEC_ARGV, ...options });
}
