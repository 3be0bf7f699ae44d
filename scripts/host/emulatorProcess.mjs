// Starts the emulator CLI as its own process and reads the two lines it prints when ready.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `script`: the node arguments that run the CLI; the bundle by default (tests of plain Node run the source through tsx).
 * @returns {Promise<{ url: string, key: string, child: import('node:child_process').ChildProcess, stop: () => void }>}
 */
export function startEmulatorProcess(root, args = [], { stderr = 'ignore', script = [join(root, 'dist', 'emulator.js')] } = {}) {
  const child = spawn(process.execPath, [...script, ...args], { stdio: ['ignore', 'pipe', stderr] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the emulator did not start within 15 s: ${out}`));
    }, 15_000);
    child.stdout.on('data', (d) => {
      out += d;
      const url = /AOAI_EMULATOR_URL=(\S+)/.exec(out)?.[1];
      const key = /AOAI_EMULATOR_KEY=(\S+)/.exec(out)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ url, key, child, stop: () => child.kill('SIGTERM') });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it was ready`));
    });
  });
}
