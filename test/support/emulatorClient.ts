/**
 * The emulator on loopback and a client of it holding the emulator's key: what most loopback
 * suites start in `before` and close in `after`:
 *
 *   before(async () => ({ emu, client } = await emulatorClient({ config })));
 *   after(() => closeAll(client, emu));
 */
import type { DeploymentConfig } from '../../src/emulator/config';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionOptions } from '../../src/service/connection';

export async function emulatorClient(
  options: EmulatorOptions = {},
  clientOptions: Partial<ConnectionOptions> = {},
): Promise<{ emu: Emulator; client: AzureOpenAIClient }> {
  const emu = await startEmulator(options);
  return { emu, client: new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey }, ...clientOptions }) };
}

/** Closes each in turn (a client before its emulator); one that never started is skipped. */
export async function closeAll(...each: Array<{ close(): Promise<void> } | undefined>): Promise<void> {
  for (const x of each) await x?.close();
}

/** A Standard deployment with room for any test's traffic, unless `more` says otherwise. */
export function deployment(name: string, model: string, more: Partial<DeploymentConfig> = {}): DeploymentConfig {
  return { name, model, version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7, ...more };
}
