/** Raw-socket HTTP/1.1 exchanges, for the listener's own HTTP layer. */
import { connect } from 'node:net';

/** Sends raw bytes (a pause between parts), returns everything the server sent back until it closed. */
export function exchange(port: number, ...parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
    socket.on('connect', async () => {
      for (const p of parts) {
        socket.write(p);
        await new Promise((r) => setTimeout(r, 20));
      }
      setTimeout(() => socket.end(), 150);
    });
  });
}

export const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
