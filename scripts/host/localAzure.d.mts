/** Types of scripts/host/localAzure.mjs, for the test that checks `npm start`'s account on loopback. */
import type { ChildProcess } from 'node:child_process';
import type { EmulatorConfig } from '../../src/emulator/config';
import type { TestIssuer } from '../../test/support/testIssuer';

export function startIdentityProvider(): Promise<{ issuer: TestIssuer; env: Record<string, string> }>;
export function emulatorConfigFor(issuer: TestIssuer, base?: Partial<EmulatorConfig>): Promise<Partial<EmulatorConfig>>;
export function cloudSettings(issuer: TestIssuer, emulatorUrl: string): Record<string, unknown>;
export function startLocalAzure(
  root: string,
  options?: { configFile?: string; stderr?: 'ignore' | 'inherit'; emulatorScript?: string[] },
): Promise<{
  issuer: TestIssuer;
  emulator: { url: string; key: string; child: ChildProcess; stop(): void };
  /** code-server's environment: the service principal, the authority host, the provider's CA. */
  env: Record<string, string>;
  /** code-server's user settings: the Custom cloud. */
  settings: Record<string, unknown>;
  stop(): Promise<void>;
}>;
