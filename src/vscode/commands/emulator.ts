/** Start and stop the local emulator, with a connection to it that lives as long as it runs. */
import * as vscode from 'vscode';
import { newConnectionId, type ConnectionInfo } from '../connections/connectionStore';
import { logInfo } from '../log';
import type { Services } from '../services';
import { withProgress } from './registry';

export async function startLocalEmulator(s: Services): Promise<ConnectionInfo | undefined> {
  const existing = s.store.list().find((c) => c.local);
  if (s.emulator.current && existing) {
    void vscode.window.showInformationMessage(`The local emulator is already running at ${s.emulator.current.url}.`);
    return existing;
  }
  const emu = await withProgress('Starting the local emulator…', () => s.emulator.start());
  const info: ConnectionInfo = { id: newConnectionId(), label: 'Local emulator', endpoint: emu.url, auth: 'apiKey', local: true };
  await s.store.save(info, emu.apiKey);
  logInfo(`Local emulator running at ${emu.url}.`);
  void vscode.window.showInformationMessage(`The local emulator runs at ${emu.url}. Its deployments and webhook endpoints are in the sidebar.`);
  return info;
}

export async function stopLocalEmulator(s: Services): Promise<boolean> {
  const stopped = await s.emulator.stop();
  for (const c of s.store.list().filter((x) => x.local)) await s.store.remove(c.id);
  if (stopped) logInfo('Local emulator stopped.');
  return stopped;
}

/** Local connections left behind by a window that closed: their emulator is gone. */
export async function dropStaleLocalConnections(s: Services): Promise<void> {
  if (s.emulator.current) return;
  for (const c of s.store.list().filter((x) => x.local)) await s.store.remove(c.id);
}
