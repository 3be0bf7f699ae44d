/**
 * Issue 27 (c): the spread between the moments the requests of one compare round arrive at the
 * emulators (seen from outside the runner: Node's `http.server.request.start`), 4 deployments on
 * two emulators (two connections, both APIs), against the same 4 requests started one after
 * another, each awaiting its answer's headers before the next is sent.
 */
import { ApiMemory } from '../src/chat/apiMemory';
import { runCompareRound, type CompareTarget } from '../src/chat/compare/compareRun';
import { median } from '../src/chat/compare/summary';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { AzureOpenAIClient } from '../src/service/client';
import { Arrivals } from '../test/support/arrivals';

type Row = { benchmark: string; ours: string; reference: string; ratio: string; goal: string };

const GOAL_MS = 5;
const unlimited = { sku: 'Standard', capacity: 1, requestsPerMinute: 1e9, tokensPerMinute: 1e12 };
const prompt = { messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: '/long 40' }] }], sampling: {} };

/** The 4 requests one after another, each sent once the previous one's headers came back. */
async function sequentialSpread(targets: readonly CompareTarget[]): Promise<number> {
  const leaving = new Arrivals(targets.map((t) => t.client.endpoint));
  const reads: Array<Promise<void>> = [];
  for (const t of targets) {
    let headers!: () => void;
    const arrived = new Promise<void>((r) => (headers = r));
    const stream = t.client.streamChatCompletion({ deployment: t.deployment, messages: [{ role: 'user', content: '/long 40' }] }, { onHeaders: () => headers(), retryRateLimits: false });
    reads.push((async () => {
      for await (const _ of stream);
    })());
    await arrived;
  }
  await Promise.all(reads);
  leaving.stop();
  return leaving.spreadMs ?? NaN;
}

/** One compare round, and how far apart its requests arrived. */
async function roundSpread(targets: readonly CompareTarget[]): Promise<number> {
  const arrivals = new Arrivals(targets.map((t) => t.client.endpoint));
  try {
    const round = await runCompareRound(targets, prompt, { signal: new AbortController().signal, apiMemory: new ApiMemory() });
    if (round.columns.some((c) => c.outcome !== 'ok')) throw new Error(`A compare round failed: ${JSON.stringify(round.columns.map((c) => c.failure))}`);
  } finally {
    arrivals.stop();
  }
  return arrivals.spreadMs ?? NaN;
}

export async function benchCompareRows(rounds = 40): Promise<Row[]> {
  const emus: Emulator[] = [];
  const clients: AzureOpenAIClient[] = [];
  try {
    for (const deployments of [
      [{ name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', ...unlimited }, { name: 'codex', model: 'gpt-5-codex', version: '1', ...unlimited }],
      [{ name: 'mini', model: 'gpt-4o-mini', version: '2024-07-18', ...unlimited }, { name: 'nano', model: 'gpt-4.1-nano', version: '2025-04-14', ...unlimited }],
    ]) {
      const emu = await startEmulator({ config: { streamTokenDelayMs: 1, deployments } });
      emus.push(emu);
      clients.push(new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey }, retry: { maxRetries: 0 } }));
    }
    const targets: CompareTarget[] = [
      { id: 'a', client: clients[0], deployment: 'gpt-4o', model: 'gpt-4o' },
      { id: 'b', client: clients[0], deployment: 'codex', model: 'gpt-5-codex' },
      { id: 'c', client: clients[1], deployment: 'mini', model: 'gpt-4o-mini' },
      { id: 'd', client: clients[1], deployment: 'nano', model: 'gpt-4.1-nano' },
    ];
    const chatTargets = targets.filter((t) => t.id !== 'b').concat({ ...targets[0], id: 'a2' });
    const ours: number[] = [];
    const reference: number[] = [];
    const fresh: number[] = [];
    // The first round also opens the connections: reported apart.
    fresh.push(await roundSpread(targets));
    await sequentialSpread(chatTargets);
    for (let i = 0; i < rounds; i++) {
      ours.push(await roundSpread(targets));
      reference.push(await sequentialSpread(chatTargets));
    }
    const m = median(ours)!;
    const worst = Math.max(...ours);
    const ref = median(reference)!;
    return [
      {
        benchmark: `Compare (c): spread of the moments 4 requests arrive (2 connections, both APIs), median of ${rounds} rounds`,
        ours: `${m.toFixed(2)} ms (worst ${worst.toFixed(2)} ms; first round, connecting: ${fresh[0].toFixed(2)} ms)`,
        reference: `${ref.toFixed(2)} ms (one after another, each awaiting its headers)`,
        ratio: (ref / m).toFixed(1),
        goal: `<= ${GOAL_MS} ms: ${m <= GOAL_MS ? 'yes' : 'NO'}`,
      },
    ];
  } finally {
    for (const c of clients) await c.close();
    for (const e of emus) await e.close();
  }
}
