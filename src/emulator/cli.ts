/**
 * `node dist/emulator.js [--port N] [--host 127.0.0.1] [--api-key K] [--config FILE]`
 *
 * When ready it prints exactly two lines on stdout (scripts read them):
 *   AOAI_EMULATOR_URL=http://127.0.0.1:<port>
 *   AOAI_EMULATOR_KEY=<key>
 * then one line per request on stderr. SIGINT/SIGTERM stop it.
 */
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

function parseArgs(argv: string[]): CliOptions | 'help' {
  const out: CliOptions = { port: 0, host: '127.0.0.1' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        return 'help';
      case '--port': {
        const v = value();
        const port = Number(v);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535 (got "${v}").`);
        out.port = port;
        break;
      }
      case '--host':
        out.host = value();
        break;
      case '--api-key':
        out.apiKey = value();
        break;
      case '--config':
        out.config = loadConfigFile(value());
        break;
      default:
        throw new UsageError(`Unknown option "${arg}".`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  let options: CliOptions | 'help';
  try {
    options = parseArgs(process.argv.slice(2));
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
