/** Helpers for tests inside the extension host. */
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../src/extension';

export const EXTENSION_ID = 'aoai-workbench.aoai-workbench';

export async function workbench(): Promise<WorkbenchApi> {
  const ext = vscode.extensions.getExtension<WorkbenchApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext.isActive ? ext.exports : ext.activate();
}

/** Removes every connection, so each test starts from a clean sidebar. */
export async function clearConnections(): Promise<void> {
  const api = await workbench();
  for (const c of api.services.store.list()) await api.services.store.remove(c.id);
}

export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
