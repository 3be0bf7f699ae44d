import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestReport } from '../../src/chat/engine/report';
import { runChat } from '../../src/chat/engine/runner';
import { InlineBudget } from '../../src/chat/inline/budget';
import { InlineEngine, type InlineTarget } from '../../src/chat/inline/engine';
import type { InlineContext } from '../../src/chat/inline/prompt';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { usageRecordOf } from '../../src/chat/engine/usageRecord';
import { UsageLog } from '../../src/usage/usageLog';
import { eventually } from '../support/receiver';
import { scratchDir } from '../support/scratchDir';

const deployment = (name: string, model: string, requestsPerMinute = 1000) => ({ name, model, version: '1', sku: 'Standard', capacity: 1, requestsPerMinute, tokensPerMinute: 1e7 });

/** A TypeScript file with `|` at the cursor. */
function at(file: string, path = 'src/math.ts'): InlineContext {
  const [prefix, suffix] = file.split('|');
  return { prefix, suffix, languageId: 'typescript', path };
}

describe('inline suggestions against the emulator', () => {
  let emu: Emulator;
  let slow: Emulator;
  let client: AzureOpenAIClient;
  let slowClient: AzureOpenAIClient;
  before(async () => {
    emu = await startEmulator({ config: { rateLimitWindowSeconds: 30, deployments: [deployment('coder', 'gpt-4o-mini'), deployment('thinker', 'o3-mini'), deployment('tiny', 'gpt-4o-mini', 1)] } });
    slow = await startEmulator({ config: { firstTokenDelayMs: 10_000, deployments: [deployment('coder', 'gpt-4o-mini')] } });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    slowClient = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey } });
  });
  after(async () => {
    await Promise.all([client.close(), slowClient.close()]);
    await Promise.all([emu.close(), slow.close()]);
  });

  const target = (name = 'coder', c = client): InlineTarget => ({ client: c, connection: 'emu', deployment: name, model: name === 'thinker' ? 'o3-mini' : 'gpt-4o-mini' });
  const engine = (reports: RequestReport[] = [], limits = { requestsPerHour: 100, tokensPerDay: 1e9 }) =>
    new InlineEngine({ run: runChat, budget: new InlineBudget(limits), onReport: (r) => reports.push(r) });
  const signal = () => new AbortController().signal;
  const BODY = 'export function add(a: number, b: number): number {\n  |\n}\n';

  it('completes a function body from its signature, and records the request in the usage log with source "inline"', async () => {
    const reports: RequestReport[] = [];
    const out = await engine(reports).suggest(at(BODY), target(), signal());
    assert.deepEqual(out, { kind: 'suggestion', text: 'return a + b;', cached: false });
    assert.equal(reports.length, 1);
    assert.equal(reports[0].source, 'inline');
    assert.ok(reports[0].tokens && reports[0].tokens.prompt > 50, 'the service counted the prompt');
    const path = join(scratchDir('inline-usage-'), 'usage.jsonl');
    const log = await UsageLog.open(path);
    log.append(usageRecordOf(reports[0], 'Emulator'));
    await log.flush();
    const summary = await log.summarize({ filter: { sources: ['inline'] } });
    assert.equal(summary.records, 1, 'the log reads the record back as an inline request');
  });

  it('finishes a line the way an earlier line of the file did, on one line, after a block opener on the next', async () => {
    const e = engine();
    const line = await e.suggest(at('console.log("start");\nlet n = 0;\ncons|'), target(), signal());
    assert.deepEqual(line, { kind: 'suggestion', text: 'ole.log("start");', cached: false });
    const opener = await e.suggest(at('function twice(x: number) {|}'), target(), signal());
    assert.deepEqual(opener, { kind: 'suggestion', text: '\n  return x;', cached: false });
  });

  it('repeats a block the file had under the same opener, lines and indentation kept', async () => {
    const clamp = 'export function clamp(v: number, lo: number, hi: number): number {\n';
    const file = `${clamp}  if (v < lo) return lo;\n  if (v > hi) return hi;\n  return v;\n}\n\n${clamp}  |\n}\n`;
    const out = await engine().suggest(at(file, 'src/clamp.ts'), target(), signal());
    assert.deepEqual(out, { kind: 'suggestion', text: 'if (v < lo) return lo;\n  if (v > hi) return hi;\n  return v;', cached: false });
  });

  it('a block streams: its first complete line is handed on before the rest arrives, and the whole is cached', async () => {
    const paced = await startEmulator({ config: { streamTokenDelayMs: 20, deployments: [deployment('coder', 'gpt-4o-mini')] } });
    const pacedClient = new AzureOpenAIClient({ endpoint: paced.url, auth: { kind: 'apiKey', apiKey: paced.apiKey } });
    try {
      const clamp = 'export function clamp(v: number, lo: number, hi: number): number {\n';
      const file = `${clamp}  if (v < lo) return lo;\n  if (v > hi) return hi;\n  return v;\n}\n\n${clamp}  |\n}\n`;
      const e = engine();
      let first: { text: string; settled: boolean } | undefined;
      let settled = false;
      const whole = e.suggest(at(file, 'src/clamp.ts'), target('coder', pacedClient), signal(), (text) => (first = { text, settled }));
      void whole.then(() => (settled = true));
      const out = await whole;
      assert.deepEqual(first, { text: 'if (v < lo) return lo;', settled: false }, 'the first line came while the rest was still on its way');
      assert.deepEqual(out, { kind: 'suggestion', text: 'if (v < lo) return lo;\n  if (v > hi) return hi;\n  return v;', cached: false });
      assert.equal(e.cached(at(file, 'src/clamp.ts'), target('coder', pacedClient)), out.kind === 'suggestion' ? out.text : '', 'the whole block is kept');
    } finally {
      await pacedClient.close();
      await paced.close();
    }
  });

  it('typing through a suggestion sends nothing new, and Backspace back to its start shows it again', async () => {
    const e = engine();
    await e.suggest(at(BODY), target(), signal());
    const sent = emu.stats.requests;
    for (const typed of ['r', 'ret', 'return a', 'return a + b']) {
      const out = await e.suggest(at(BODY.replace('|', typed + '|')), target(), signal());
      assert.deepEqual(out, { kind: 'suggestion', text: 'return a + b;'.slice(typed.length), cached: true }, typed);
    }
    assert.deepEqual(await e.suggest(at(BODY), target(), signal()), { kind: 'suggestion', text: 'return a + b;', cached: true });
    assert.equal(emu.stats.requests, sent, 'no request left while typing through');
  });

  it('a cancelled request closes its connection: the emulator sees it closed and stops', async () => {
    const before = slow.stats.requests;
    const aborted = slow.stats.streamsAborted;
    const stop = new AbortController();
    const pending = engine().suggest(at(BODY), target('coder', slowClient), stop.signal);
    await eventually(() => slow.stats.requests > before, 10_000, 'the slow emulator to receive the request');
    const cancelledAt = Date.now();
    stop.abort();
    assert.deepEqual(await pending, { kind: 'cancelled' });
    await eventually(() => slow.stats.streamsAborted > aborted, 10_000, 'the emulator to see the request closed');
    assert.ok(Date.now() - cancelledAt < 5_000, 'closed long before the 10 s answer');
  });

  it('a reasoning model gets the lowest effort it takes, and room to think within its cap', async () => {
    const reports: RequestReport[] = [];
    const out = await engine(reports).suggest(at(BODY), target('thinker'), signal());
    assert.deepEqual(out, { kind: 'suggestion', text: 'return a + b;', cached: false });
    assert.equal(reports.length, 1, 'sent once: nothing refused');
  });

  it('pauses past the hour\'s requests, and for the time a 429 gave, sending nothing meanwhile', async () => {
    const e = engine([], { requestsPerHour: 1, tokensPerDay: 1e9 });
    await e.suggest(at(BODY), target(), signal());
    const sent = emu.stats.requests;
    const out = await e.suggest(at('let x = |'), target(), signal());
    assert.equal(out.kind === 'paused' && out.pause.reason, 'requests');
    assert.equal(emu.stats.requests, sent);

    const limited = engine();
    await limited.suggest(at(BODY), target('tiny'), signal());
    const refused = await limited.suggest(at('let y = |'), target('tiny'), signal());
    assert.ok(refused.kind === 'paused' && refused.pause.reason === 'rateLimited', JSON.stringify(refused));
    assert.ok(refused.pause.until > Date.now() + 1000, 'until the time the service gave');
    const afterRefusal = emu.stats.requests;
    const again = await limited.suggest(at('let z = |'), target('tiny'), signal());
    assert.equal(again.kind, 'paused');
    assert.equal(emu.stats.requests, afterRefusal, 'nothing sent during the pause');
  });
});
