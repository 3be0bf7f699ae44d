/** Helpers for tests inside the extension host. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestInternals, WorkbenchApi } from '../../src/extension';

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

export { eventually } from '../support/receiver';

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
