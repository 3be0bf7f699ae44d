/** Start and stop the local emulator, with a connection to it that lives as long as it runs. */
import * as vscode from 'vscode';
import { emulatorAnswers, localConnectionsToDrop } from '../../service/localConnections';
import { newConnectionId, type ConnectionInfo } from '../connections/connectionStore';
import { logInfo } from '../log';
import type { Services } from '../services';
import { withProgress } from './registry';

export async function startLocalEmulator(s: Services): Promise<ConnectionInfo | undefined> {
  const existing = s.store.list().find((c) => c.local && c.endpoint === s.emulator.current?.url);
  if (s.emulator.current && existing) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The local emulator is already running at {0}.', s.emulator.current.url));
    return existing;
  }
  const emu = await withProgress(vscode.l10n.t('Starting the local emulator…'), () => s.emulator.start());
  const info: ConnectionInfo = { id: newConnectionId(), label: vscode.l10n.t('Local emulator'), endpoint: emu.url, auth: 'apiKey', local: true };
  await s.store.save(info, emu.apiKey);
  logInfo(`Local emulator running at ${emu.url}.`);
  void vscode.window.showInformationMessage(vscode.l10n.t('The local emulator runs at {0}. Its deployments and webhook endpoints are in the sidebar.', emu.url));
  return info;
}

export async function stopLocalEmulator(s: Services): Promise<boolean> {
  const url = s.emulator.current?.url;
  const stopped = await s.emulator.stop();
  // Only this window's: another window's emulator keeps its connection.
  for (const c of s.store.list().filter((x) => x.local && x.endpoint === url)) await s.store.remove(c.id);
  if (stopped) logInfo('Local emulator stopped.');
  return stopped;
}

/** Local connections left behind by a window that closed: their emulator no longer answers. */
export async function dropStaleLocalConnections(s: Services): Promise<void> {
  const stale = await localConnectionsToDrop(s.store.list(), s.emulator.current?.url, async (c) => emulatorAnswers(c.endpoint, await s.store.apiKey(c.id)));
  for (const c of stale) await s.store.remove(c.id);
}
