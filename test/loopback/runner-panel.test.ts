import assert from 'node:assert/strict';
import { runPanelChat } from '../support/panelRun';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

describe('chat runner with the panel\'s options against the emulator', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: {
      rateLimitWindowSeconds: 2,
      deployments: [
        deployment('chat', 'gpt-4o'),
        // A name that does not reveal the model family: the engine learns it from the service.
        deployment('reasoner', 'o3-mini'),
        deployment('tiny', 'gpt-4o', { requestsPerMinute: 1 }),
      ],
    },
  })));
  after(() => closeAll(client, emu));

  const base = { systemPrompt: 'Be brief.', route: 'v1' as const };
  const run = (deployment: string, content: string, params = {}, extra = {}) =>
    runPanelChat({ client, deployment, messages: [{ role: 'user', content }], params: { ...base, ...params }, signal: new AbortController().signal, onDelta: () => {}, ...extra });

  it('streams a reply with usage, on both routes', async () => {
    for (const route of ['v1', 'deployment'] as const) {
      const pieces: string[] = [];
      const r = await runPanelChat({
        client,
        deployment: 'chat',
        messages: [{ role: 'user', content: 'hi' }],
        params: { ...base, route, apiVersion: '2024-10-21' },
        signal: new AbortController().signal,
        onDelta: (t) => pieces.push(t),
      });
      assert.match(r.content, /You said: hi/);
      assert.equal(pieces.join(''), r.content);
      assert.ok(r.usage && r.usage.total_tokens > 0);
      assert.equal(r.finishReason, 'stop');
    }
  });

  it('switches max_tokens to max_completion_tokens when the model rejects it, and drops an unsupported temperature', async () => {
    const r = await run('reasoner', '/long 200', { maxTokens: 7, temperature: 0.3 });
    assert.equal(r.finishReason, 'length');
    assert.equal(r.usage?.completion_tokens, 7);
  });

  it('sends a reasoning model what it takes at once when it knows the model, and finds out otherwise', async () => {
    // Each request the emulator serves is counted: a wrong first guess costs a second request.
    const requests = async (fn: () => Promise<unknown>) => {
      const before = emu.stats.requests;
      await fn();
      return emu.stats.requests - before;
    };
    const known = { model: 'o3-mini' };
    assert.equal(await requests(() => run('reasoner', '/long 50', { maxTokens: 7 }, known)), 1, 'max_completion_tokens from the start');
    assert.equal(await requests(() => run('reasoner', '/long 50', { maxTokens: 7 })), 2, 'max_tokens refused, then max_completion_tokens');
    // A reasoning model never gets a temperature, in either chat: left out at once, and said so.
    let notes: string[] | undefined;
    assert.equal(await requests(async () => (notes = (await run('reasoner', 'hi', { temperature: 0.3 }, known)).notes)), 1, 'the temperature is left out up front');
    assert.deepEqual(notes, ['Temperature was left out: reasoner does not take it.']);
    assert.equal(await requests(() => run('reasoner', 'hi', {}, known)), 1);
    const plain = await run('chat', '/long 50', { maxTokens: 5, temperature: 0.2, topP: 0.9 });
    assert.deepEqual([plain.finishReason, plain.usage?.completion_tokens], ['length', 5], 'max_tokens honoured by a chat model');
    assert.ok(plain.latencyMs >= 0 && plain.latencyMs < 10_000, `latency ${plain.latencyMs} ms`);
  });

  it('reports a 429 at once when its wait is longer than the user allows', async () => {
    await run('tiny', 'first').catch(() => undefined);
    const ticks: number[] = [];
    const t0 = Date.now();
    await assert.rejects(run('tiny', 'second', {}, { maxRetryWaitMs: 10, onRetryWait: (n: number) => ticks.push(n) }), (e: unknown) => e instanceof ServiceError && e.status === 429);
    assert.deepEqual(ticks, []);
    assert.ok(Date.now() - t0 < 1000);
    await new Promise((r) => setTimeout(r, 2100)); // the 2 s window passes for the next test
  });

  it('waits out a 429 with a countdown, then answers', async () => {
    await run('tiny', 'first');
    const ticks: number[] = [];
    const r = await run('tiny', 'second', {}, { onRetryWait: (s: number) => ticks.push(s) });
    assert.match(r.content, /You said: second/);
    assert.ok(ticks.length >= 1 && ticks[0] >= 1 && ticks[0] <= 2, `countdown ${ticks}`);
  });

  it('returns what arrived, marked stopped, when the user stops', async () => {
    const slow = await startEmulator({ config: { streamTokenDelayMs: 5 } });
    const c = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey } });
    try {
      const ac = new AbortController();
      let seen = 0;
      const messages = [{ role: 'user' as const, content: '/long 3000' }];
      const r = await runPanelChat({ client: c, deployment: 'gpt-4o', messages, params: base, signal: ac.signal, onDelta: () => ++seen === 10 && ac.abort() });
      assert.equal(r.stopped, true);
      assert.ok(r.content.length > 0);
    } finally {
      await c.close();
      await slow.close();
    }
  });

  it('throws a ServiceError a person can act on for an unknown deployment', async () => {
    await assert.rejects(run('nope', 'x'), (e: unknown) => e instanceof ServiceError && /deployment "nope" does not exist/.test(e.message));
  });
});
