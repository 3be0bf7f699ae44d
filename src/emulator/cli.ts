/**
 * `node dist/emulator.js [--port N] [--host 127.0.0.1] [--api-key K] [--config FILE]`
 *
 * When ready it prints exactly two lines on stdout (scripts read them):
 *   AOAI_EMULATOR_URL=http://127.0.0.1:<port>
 *   AOAI_EMULATOR_KEY=<key>
 * then one line per request on stderr. SIGINT/SIGTERM stop it.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFile, type EmulatorConfig } from './config';
import { startEmulator } from './server';

const USAGE = `Usage: emulator [--port N] [--host 127.0.0.1] [--api-key K] [--config FILE]

Starts a local emulator of the Azure OpenAI service (chat completions, responses,
webhook endpoints and deliveries, files, batches, fine-tuning jobs, incoming calls,
deployments through Resource Manager). --port 0 (default) takes a free port.`;

interface CliOptions {
  port: number;
  host: string;
  apiKey?: string;
  config?: Partial<EmulatorConfig>;
}

class UsageError extends Error {}

function readArgs(args: string[]): CliOptions | 'help' {
  const text = { type: 'string' } as const;
  let values;
  try {
    ({ values } = parseArgs({ args, options: { port: text, host: text, 'api-key': text, config: text, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  for (const [flag, value] of Object.entries(values)) if (value === '') throw new UsageError(`--${flag} needs a value.`);
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535 (got "${values.port}").`);
  return { port, host: values.host ?? '127.0.0.1', apiKey: values['api-key'], config: values.config ? loadConfigFile(values.config) : undefined };
}

async function main(): Promise<void> {
  let options: CliOptions | 'help';
  try {
    options = readArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`emulator: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let emulator;
  try {
    emulator = await startEmulator({ ...options, log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? `port ${options.port} is already in use; pick another or use --port 0` : e.code === 'EADDRNOTAVAIL' ? `cannot listen on ${options.host}` : e.message;
    process.stderr.write(`emulator: cannot start: ${why}\n`);
    process.exit(1);
  }
  process.stdout.write(`AOAI_EMULATOR_URL=${emulator.url}\nAOAI_EMULATOR_KEY=${emulator.apiKey}\n`);
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
