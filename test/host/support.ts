/** Helpers for tests inside the extension host. */
import type { TestIssuer as RunningIssuer } from '../support/testIssuer';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EmulatorConfig } from '../../src/emulator/config';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { TestInternals, WorkbenchApi } from '../../src/extension';
import { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';

export const EXTENSION_ID = 'aoai-workbench.aoai-workbench';

/** The API other extensions get. */
export async function publicApi(): Promise<WorkbenchApi> {
  const ext = vscode.extensions.getExtension<WorkbenchApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext.isActive ? ext.exports : ext.activate();
}

/** The extension's parts, through the command the runner's AOAI_WORKBENCH_TEST_INTERNALS=1 enables. */
export async function workbench(): Promise<TestInternals> {
  await publicApi();
  const internals = await vscode.commands.executeCommand<TestInternals | undefined>('aoaiWorkbench.test.internals');
  if (!internals) throw new Error('no test internals: the runner sets AOAI_WORKBENCH_TEST_INTERNALS=1');
  return internals;
}

/** Removes every connection, so each test starts from a clean sidebar. */
export async function clearConnections(): Promise<void> {
  const api = await workbench();
  for (const c of api.services.store.list()) await api.services.store.remove(c.id);
}

/**
 * Runs one of our commands as our own views do: object arguments marked as ours, so it asks
 * nothing more than from the sidebar (askFirst.ts asks when plain arguments come from elsewhere).
 */
export async function execAsOurs<T>(cmd: string, ...args: unknown[]): Promise<T> {
  const { owned } = await workbench();
  return vscode.commands.executeCommand<T>(`aoaiWorkbench.${cmd}`, ...args.map((a) => (a && typeof a === 'object' ? owned(a) : a)));
}

export { eventually } from '../support/receiver';

/** Today's usage of one deployment as the usage log has it (what the usage view and the status bar read). */
export async function usageToday(connectionId: string, deployment: string) {
  const api = await workbench();
  const summary = await api.services.usage.summarize();
  return summary.deployments.find((d) => d.connectionId === connectionId && d.deployment === deployment)?.windows.today;
}

export interface EmulatedService {
  emu: Emulator;
  /** The emulator as the extension's only connection, added as a user would. */
  conn: ConnectionInfo;
  /** The test's own client, to check what the service holds. */
  client: AzureOpenAIClient;
}

/** Starts the emulator on loopback and makes it the only connection, with no events left from earlier tests. */
export async function emulatedService(label: string, config?: Partial<EmulatorConfig>): Promise<EmulatedService> {
  const emu = await startEmulator(config ? { config } : {});
  await clearConnections();
  const conn = await execAsOurs<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label });
  if (!conn) throw new Error(`could not add the connection "${label}"`);
  await execAsOurs('clearEvents', { confirm: false });
  return { emu, conn, client: new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } }) };
}

/** Undoes `emulatedService`: stops listening (keeping endpoints), closes editors, removes the connection, ends the emulator. */
export async function closeEmulatedService(s: Partial<EmulatedService>): Promise<void> {
  await execAsOurs('stopListening', { deleteEndpoint: false });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await s.client?.close();
  await clearConnections();
  await s.emu?.close();
}

/** Has the emulated service emit an event to every endpoint that subscribes to it; resolves once all were delivered. */
export async function emitServiceEvent(emu: Emulator, type: string, data: Record<string, unknown>): Promise<{ deliveries: unknown[] }> {
  const res = await fetch(`${emu.url}/emulator/events`, {
    method: 'POST',
    headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ type, data }),
  });
  if (res.status !== 200) throw new Error(`the emulator answered ${res.status} to emitting ${type}`);
  return (await res.json()) as { deliveries: unknown[] };
}

/** The user's settings files and every log file of this VS Code run (where a leaked secret would land). */
export function settingsAndLogFiles(): string[] {
  const userData = process.env.AOAI_TEST_USER_DATA;
  if (!userData) throw new Error('AOAI_TEST_USER_DATA is not set: the runner tells where the user data folder is');
  const out: string[] = [];
  const walk = (d: string, keep: (f: string) => boolean) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, keep);
      else if (st.size < 5_000_000 && keep(p)) out.push(p);
    }
  };
  walk(join(userData, 'User'), (f) => f.endsWith('.json'));
  walk(join(userData, 'logs'), () => true);
  return out;
}

/** The local identity provider the host test runner starts (its issuer, keys, CA and the signed-in principal). */
export type TestIssuer = Pick<RunningIssuer, 'authorityHost' | 'tenantId' | 'issuer' | 'jwksUri' | 'caFile'> & { oid: string };

export function testIssuer(): TestIssuer {
  if (!process.env.AOAI_TEST_ISSUER) throw new Error('AOAI_TEST_ISSUER is not set: the runner starts the local identity provider');
  return JSON.parse(process.env.AOAI_TEST_ISSUER) as TestIssuer;
}

/** Signs in against the test issuer, with `resourceManager` (an emulator) as the cloud's Resource Manager. */
export async function useTestCloud(issuer: TestIssuer, resourceManager: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('aoaiWorkbench');
  await config.update('cloud', 'Custom', vscode.ConfigurationTarget.Global);
  await config.update(
    'customCloud',
    { authorityHost: issuer.authorityHost, resourceManagerEndpoint: resourceManager, managementScope: 'https://management.azure.com/.default' },
    vscode.ConfigurationTarget.Global,
  );
}
