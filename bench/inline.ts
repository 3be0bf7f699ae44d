/**
 * Issue #38: inline suggestions as a typist meets them, against the emulator on loopback. The bench
 * plays VS Code's part (each keystroke calls the provider and cancels the call before it) and drives
 * the engine as the provider does: the cache first, then the debounce, then one request through
 * the one runner (src/vscode/inline/controller.ts adds only the editor's reading and the status bar).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { runChat } from '../src/chat/engine/runner';
import { InlineBudget } from '../src/chat/inline/budget';
import { afterDebounce, InlineEngine, type InlineOutcome, type InlineTarget } from '../src/chat/inline/engine';
import { buildInlinePrompt, type InlineContext } from '../src/chat/inline/prompt';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { AzureOpenAIClient } from '../src/service/client';

type Row = { benchmark: string; ours: string; reference: string; ratio: string; goal: string };

/** The setting's default. */
const DEBOUNCE_MS = 150;
const KEY_MS = 125;
/** A typist's look at the line just written before the next (the only pauses past the debounce). */
const LINE_END_MS = 400;

const deployment = { name: 'coder', model: 'gpt-4o-mini', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1e9, tokensPerMinute: 1e12 };

const at = (file: string, path = 'src/bench.ts'): InlineContext => {
  const [prefix, suffix] = file.split('|');
  return { prefix, suffix, languageId: 'typescript', path };
};

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** One provider call as VS Code makes it: cached rest at once, else the debounce, then a request. */
async function provide(engine: InlineEngine, ctx: InlineContext, target: InlineTarget, signal: AbortSignal, debounceMs = DEBOUNCE_MS): Promise<InlineOutcome> {
  const hit = engine.cached(ctx, target);
  if (hit !== undefined) return { kind: 'suggestion', text: hit, cached: true };
  if (!(await afterDebounce(debounceMs, signal))) return { kind: 'cancelled' };
  return engine.suggest(ctx, target, signal);
}

/** A 40-line file a person might type. */
const FILE = Array.from({ length: 10 }, (_, i) => [`export function f${i}(a: number, b: number): number {`, `  const s = a + b * ${i};`, '  return s;', '}'].join('\n')).join('\n') + '\n';

/** Keystroke to ghost text (no cache: a new function each time) against the same request sent directly. */
async function keystrokeToGhost(engine: InlineEngine, target: InlineTarget, client: AzureOpenAIClient, samples: number) {
  const ours: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < samples; i++) {
    const ctx = at(`export function g${i}(a${i}: number, b: number): number {\n  |\n}\n`);
    const t0 = performance.now();
    const out = await provide(engine, ctx, target, new AbortController().signal);
    ours.push(performance.now() - t0);
    if (out.kind !== 'suggestion' || !out.text) throw new Error(`no suggestion: ${JSON.stringify(out)}`);
    const { messages, maxTokens } = buildInlinePrompt(ctx);
    const plain = messages.map((m) => ({ role: m.role, content: m.parts.map((p) => ('text' in p ? p.text : '')).join('') }));
    const request = { deployment: target.deployment, messages: plain, max_tokens: maxTokens, temperature: 0 };
    const t1 = performance.now();
    const stream = client.streamChatCompletion(request, { retryRateLimits: false });
    for await (const _ of stream);
    direct.push(performance.now() - t1);
  }
  return { ours, direct };
}

/** Types FILE at 8 keys a second, a pause at each line's end; counts the requests that left. */
async function typeTheFile(engine: InlineEngine, target: InlineTarget, emu: Emulator): Promise<{ keys: number; requests: number }> {
  const before = emu.stats.requests;
  let last = new AbortController();
  const calls: Array<Promise<unknown>> = [];
  for (let n = 1; n <= FILE.length; n++) {
    last.abort();
    last = new AbortController();
    calls.push(provide(engine, at(`${FILE.slice(0, n)}|`), target, last.signal));
    await new Promise((r) => setTimeout(r, FILE[n - 1] === '\n' ? LINE_END_MS : KEY_MS));
  }
  last.abort();
  await Promise.all(calls);
  return { keys: FILE.length, requests: emu.stats.requests - before };
}

/**
 * A 3-line suggestion shown, then its characters typed one by one: the requests that left while
 * it still showed a rest, and after its last character (the cursor at a new place asks anew).
 */
interface TypedThrough {
  lines: number;
  keys: number;
  requests: number;
  atTheEnd: number;
}

async function typeThrough(engine: InlineEngine, target: InlineTarget, emu: Emulator): Promise<TypedThrough> {
  const clamp = 'export function clamp(v: number, lo: number, hi: number): number {\n';
  const file = `${clamp}  if (v < lo) return lo;\n  if (v > hi) return hi;\n  return v;\n}\n\n${clamp}  |\n}\n`;
  const [prefix, suffix] = file.split('|');
  const shown = await provide(engine, at(file), target, new AbortController().signal);
  if (shown.kind !== 'suggestion') throw new Error(`no suggestion to type through: ${JSON.stringify(shown)}`);
  const before = emu.stats.requests;
  const typed = (n: number) => provide(engine, at(`${prefix}${shown.text.slice(0, n)}|${suffix}`), target, new AbortController().signal);
  for (let n = 1; n < shown.text.length; n++) {
    const out = await typed(n);
    if (out.kind !== 'suggestion' || out.text !== shown.text.slice(n)) throw new Error(`after ${n} characters the rest was not shown: ${JSON.stringify(out)}`);
  }
  const requests = emu.stats.requests - before;
  await typed(shown.text.length);
  return { lines: shown.text.split('\n').length, keys: shown.text.length, requests, atTheEnd: emu.stats.requests - before - requests };
}

/** From the keystroke that cancels a request in flight to its socket closed, seen at the emulator. */
async function cancelToClose(engine: InlineEngine, target: InlineTarget, samples: number): Promise<number[]> {
  const gaps: number[] = [];
  for (let i = 0; i < samples; i++) {
    let socket: Socket | undefined;
    const arrived = new Promise<void>((resolve) => {
      const listener = (message: unknown) => {
        socket = (message as { socket: Socket }).socket;
        unsubscribe('http.server.request.start', listener);
        resolve();
      };
      subscribe('http.server.request.start', listener);
    });
    const keystroke = new AbortController();
    const call = provide(engine, at(`export function h${i}(a: number): number {\n  |\n}\n`), target, keystroke.signal, 0);
    await arrived;
    const closed = new Promise<number>((resolve) => socket!.once('close', () => resolve(performance.now())));
    const t0 = performance.now();
    keystroke.abort();
    gaps.push((await closed) - t0);
    await call;
  }
  return gaps;
}

export async function benchInlineRows(samples = 40): Promise<Row[]> {
  const emu = await startEmulator({ config: { deployments: [deployment] } });
  const slow = await startEmulator({ config: { firstTokenDelayMs: 30_000, deployments: [deployment] } });
  const client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey }, retry: { maxRetries: 0 } });
  const slowClient = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey }, retry: { maxRetries: 0 } });
  const engine = () => new InlineEngine({ run: runChat, budget: new InlineBudget({ requestsPerHour: 1e9, tokensPerDay: 1e12 }) });
  const target = (c: AzureOpenAIClient): InlineTarget => ({ client: c, connection: 'bench', deployment: 'coder', model: 'gpt-4o-mini' });
  try {
    await provide(engine(), at('export function warm(a: number): number {\n  |\n}\n'), target(client), new AbortController().signal);
    const { ours, direct } = await keystrokeToGhost(engine(), target(client), client, samples);
    const over = [0.5, 0.95].map((q) => quantile(ours, q) - quantile(direct, q));
    const typed = await typeTheFile(engine(), target(client), emu);
    const per100 = (typed.requests / typed.keys) * 100;
    const through = await typeThrough(engine(), target(client), emu);
    const gaps = await cancelToClose(engine(), target(slowClient), 40);
    const gap50 = quantile(gaps, 0.5);
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    return [
      {
        benchmark: `Inline: keystroke to ghost text, emulator at 0 ms latency, debounce ${DEBOUNCE_MS} ms, p50 / p95 of ${samples} (no cache hit)`,
        ours: `${ms(quantile(ours, 0.5))} / ${ms(quantile(ours, 0.95))} (overhead ${ms(over[0])} / ${ms(over[1])})`,
        reference: `${ms(quantile(direct, 0.5))} / ${ms(quantile(direct, 0.95))} (the same request sent directly)`,
        ratio: (quantile(ours, 0.5) / quantile(direct, 0.5)).toFixed(1),
        goal: `overhead <= debounce + 10 ms: ${Math.max(...over) <= DEBOUNCE_MS + 10 ? 'yes' : 'NO'}`,
      },
      {
        benchmark: `Inline: requests per 100 keystrokes typing a 40-line file (${typed.keys} keys) at 8 keys/s, ${LINE_END_MS} ms at each line's end`,
        ours: `${per100.toFixed(1)} (${typed.requests} requests)`,
        reference: '100 (one per keystroke)',
        ratio: (100 / Math.max(per100, 0.1)).toFixed(1),
        goal: `<= 15: ${per100 <= 15 ? 'yes' : 'NO'}`,
      },
      {
        benchmark: `Inline: typing through a shown ${through.lines}-line suggestion (${through.keys} keys), new requests while it shows a rest`,
        ours: `${through.requests} (its last key, the suggestion used up, asks what follows: ${through.atTheEnd})`,
        reference: '-',
        ratio: '-',
        goal: `0: ${through.requests === 0 ? 'yes' : 'NO'}`,
      },
      {
        benchmark: 'Inline: a request in flight cancelled by the next keystroke, until its socket is closed at the emulator, median (p95) of 40',
        ours: `${ms(gap50)} (${ms(quantile(gaps, 0.95))})`,
        reference: '-',
        ratio: '-',
        goal: `median <= 5 ms: ${gap50 <= 5 ? 'yes' : 'NO'}`,
      },
    ];
  } finally {
    await Promise.all([client.close(), slowClient.close()]);
    await Promise.all([emu.close(), slow.close()]);
  }
}
