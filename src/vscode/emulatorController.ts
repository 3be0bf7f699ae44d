/**
 * Runs the local emulator inside the extension host, on a free loopback port, so any user can try
 * every feature without an account. Its code (and tokenizer data) loads only when started.
 */
import * as vscode from 'vscode';
import type { Emulator } from '../emulator/server';
import { loadEmulator } from './bundles';
import { ContextKeys } from './contributions';
import { logInfo } from './log';
import { setContext } from './settings';

export class EmulatorController implements vscode.Disposable {
  private running: Emulator | undefined;

  get current(): Emulator | undefined {
    return this.running;
  }

  async start(): Promise<Emulator> {
    if (this.running) return this.running;
    // A separate bundle, required on demand: activation never pays for it.
    this.running = await loadEmulator().startEmulator({
      host: '127.0.0.1',
      port: 0,
      config: { streamTokenDelayMs: 15 },
      log: (line) => logInfo(`[emulator] ${line}`),
    });
    await setContext(ContextKeys.emulatorRunning, true);
    return this.running;
  }

  async stop(): Promise<boolean> {
    const e = this.running;
    if (!e) return false;
    this.running = undefined;
    await e.close();
    await setContext(ContextKeys.emulatorRunning, false);
    return true;
  }

  dispose(): void {
    void this.stop();
  }
}
