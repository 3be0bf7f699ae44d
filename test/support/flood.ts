/**
 * The floods of issues #12 and #25, shared by their tests and `npm run bench`: verified
 * deliveries, then `requests` unsigned ones of `minBytes`–`maxBytes` over `connections`
 * connections — or, with `replays`, one signed delivery of `maxBytes` replayed `requests` times
 * (anyone who holds one can) — then one more verified delivery; the listener runs in its own
 * process (test/support/floodTarget.ts).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'undici';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';

export interface FloodOptions {
  requests: number;
  connections: number;
  minBytes: number;
  maxBytes: number;
  verifiedBefore: number;
  /** Replays of one signed delivery instead of unsigned ones. */
  replays?: boolean;
  /** Stops sending after this long, whatever is left (keeps a bench bounded on a slow machine). */
  maxSeconds?: number;
}

export interface FloodResult {
  peakRssMB: number;
  storeMB: number;
  seconds: number;
  verifiedBeforeKept: number;
  verifiedAfter: boolean;
  /** Rows a restart shows for the flood, and how many rejections their summaries count. */
  rejectedRows: number;
  rejectedCounted: number;
  /** Requests sent (fewer than asked when `maxSeconds` cut the flood short). */
  sent: number;
  /** Replays: the replayed delivery still shown verified, its duplicates counted, and rows of duplicates. */
  replayedKept: boolean;
  duplicatesCounted: number;
  /** Requests the listener answered 200 (a request cut off on a loaded machine is not one). */
  answered: number;
  duplicateRows: number;
}

type Stats = { peakRssBytes: number; storeBytes: number; records: Array<{ webhookId?: string; verdict: string; count?: number; duplicates?: number }> };

export async function flood(options: FloodOptions): Promise<FloodResult> {
  const secret = generateSecret();
  const dir = mkdtempSync(join(tmpdir(), 'aoai-flood-'));
  const child = fork(join(__dirname, 'floodTarget.ts'), [dir, secret], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const message = <T>() => new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`the listener process exited (${code})`)));
  });
  try {
    const { port } = await message<{ port: number }>();
    const origin = `http://127.0.0.1:${port}`;
    const event = (id: string, pad = 0) => JSON.stringify({ object: 'event', id: `evt_${id}`, type: 'response.completed', created_at: 1, data: { id: `resp_${id}`, pad: 'p'.repeat(pad) } });
    const signed = async (id: string, body = event(id)) => {
      const client = new Client(origin);
      const res = await client.request({ path: '/webhook', method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, id, body) }, body });
      await res.body.dump();
      await client.close();
      return res.statusCode;
    };
    for (let i = 0; i < options.verifiedBefore; i++) await signed(`msg_before_${i}`);
    // The replayed delivery: signed once, sent as it was captured (same id, timestamp and signature) every time.
    const replayedBody = event('replayed', Math.max(0, options.maxBytes - 200));
    const replayedHeaders = { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_replayed', replayedBody) };
    if (options.replays) await signed('msg_replayed', replayedBody);
    const big = Buffer.alloc(options.maxBytes, 'x');
    const forged = signedHeaders(generateSecret(), 'msg_forged', '{}');
    const request = (n: number) => {
      if (options.replays) return { headers: replayedHeaders, body: replayedBody };
      const size = options.minBytes + Math.floor((((n * 7919) % 1000) / 1000) * (options.maxBytes - options.minBytes));
      return { headers: { ...forged, 'webhook-id': `msg_forged_${n}` }, body: big.subarray(0, size) };
    };
    let next = 0;
    let answered = 0;
    const t0 = performance.now();
    const deadline = t0 + (options.maxSeconds ?? Infinity) * 1000;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        let client = new Client(origin);
        while (next < options.requests && performance.now() < deadline) {
          const n = next++;
          try {
            const res = await client.request({ path: '/webhook', method: 'POST', ...request(n) });
            await res.body.dump();
            if (res.statusCode === 200) answered++;
          } catch {
            // Refused mid-body (the listener was full): a new connection for the next one.
            await client.destroy().catch(() => undefined);
            client = new Client(origin);
          }
        }
        await client.close().catch(() => undefined);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const afterStatus = await signed('msg_after_flood');
    const stats = message<Stats>();
    child.send('stats');
    const s = await stats;
    const rejected = s.records.filter((r) => r.verdict === 'rejected');
    const replayed = s.records.find((r) => r.webhookId === 'msg_replayed' && r.verdict === 'verified');
    return {
      peakRssMB: s.peakRssBytes / 2 ** 20,
      storeMB: s.storeBytes / 2 ** 20,
      seconds,
      verifiedBeforeKept: s.records.filter((r) => r.verdict === 'verified' && r.webhookId?.startsWith('msg_before_')).length,
      verifiedAfter: afterStatus === 200 && s.records.some((r) => r.webhookId === 'msg_after_flood' && r.verdict === 'verified'),
      rejectedRows: rejected.length,
      rejectedCounted: rejected.reduce((n, r) => n + (r.count ?? 1), 0),
      sent: next,
      answered,
      replayedKept: !!replayed,
      duplicatesCounted: replayed?.duplicates ?? 0,
      duplicateRows: s.records.filter((r) => r.verdict === 'duplicate').length,
    };
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
