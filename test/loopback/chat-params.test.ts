/** What the chat engine sends, and sends again, when the service refuses a parameter or is busy. */
import assert from 'node:assert/strict';
import { runPanelChat, type PanelRunInput } from '../support/panelRun';
import type { ChatParams } from '../../src/chat/model';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import { refusesParam, scripted, status, streamed, type Step } from '../support/scriptedServer';

const base: ChatParams = { systemPrompt: '', route: 'v1', api: 'chat' };

async function chat(steps: Step[], deployment: string, params: Partial<ChatParams>, extra: Partial<PanelRunInput> = {}) {
  const s = await scripted(steps);
  const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } });
  try {
    const result = await runPanelChat({
      client,
      deployment,
      messages: [{ role: 'user', content: 'hi' }],
      params: { ...base, ...params },
      signal: new AbortController().signal,
      onDelta: () => {},
      ...extra,
    }).catch((e: unknown) => e);
    return { result, bodies: s.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>) };
  } finally {
    await client.close();
    await s.close();
  }
}
const keys = (b: Record<string, unknown>) => ['temperature', 'top_p', 'max_tokens', 'max_completion_tokens'].filter((k) => k in b);

describe('chat engine parameters on the wire', () => {
  it('sends only the parameters the user set', async () => {
    const { bodies } = await chat([streamed()], 'gpt-4o', {});
    assert.deepEqual(keys(bodies[0]!), []);
    const set = await chat([streamed()], 'gpt-4o', { temperature: 0.2, topP: 0.9, maxTokens: 50 });
    assert.deepEqual([set.bodies[0]!.temperature, set.bodies[0]!.top_p, set.bodies[0]!.max_tokens], [0.2, 0.9, 50]);
  });

  it('sends max_tokens instead when the service refuses max_completion_tokens (an older API version)', async () => {
    const { result, bodies } = await chat([refusesParam('max_completion_tokens'), streamed('fine')], 'o3-mini', { maxTokens: 40 });
    assert.equal((result as { content: string }).content, 'fine');
    assert.deepEqual(bodies.map(keys), [['max_completion_tokens'], ['max_tokens']]);
    assert.equal(bodies[1]!.max_tokens, 40);
  });

  it('leaves out top_p when the model refuses it, and says so with the reply', async () => {
    const { result, bodies } = await chat([refusesParam('top_p'), streamed('fine')], 'gpt-4o', { topP: 0.5, temperature: 0.3 });
    assert.deepEqual(bodies.map(keys), [['temperature', 'top_p'], ['temperature']]);
    assert.deepEqual((result as { notes?: string[] }).notes, ['Top P was left out: gpt-4o does not take it.']);
  });

  it('reports a refusal of a parameter it did not send, or of any other parameter, without trying again', async () => {
    for (const param of ['max_tokens', 'top_p', 'messages']) {
      const { result, bodies } = await chat([refusesParam(param)], 'gpt-4o', {});
      assert.ok(result instanceof ServiceError && result.status === 400, param);
      assert.equal(bodies.length, 1, param);
    }
    const other = await chat([status(400)], 'gpt-4o', { maxTokens: 10 });
    assert.ok(other.result instanceof ServiceError);
    assert.equal(other.bodies.length, 1);
  });

  it('gives up with a clear message when the service keeps refusing the token parameter either way', async () => {
    const flipFlop = Array.from({ length: 8 }, (_, i) => refusesParam(i % 2 ? 'max_tokens' : 'max_completion_tokens'));
    const { result, bodies } = await chat(flipFlop, 'o3-mini', { maxTokens: 10 });
    // The refusal itself, then why nothing more was sent.
    assert.match((result as Error).message, /HTTP 400.*parameter "max_(completion_)?tokens".* The service kept rejecting the request parameters\.$/);
    assert.equal(bodies.length, 6);
  });

  it('waits out a rate limit twice at most, and only when the wait is within what the user allows', async function () {
    this.timeout(60_000);
    const busy = status(429, { 'retry-after-ms': '1000' });
    const twice = await chat([busy, busy, streamed('at last')], 'gpt-4o', {}, { maxRetryWaitMs: 1_000 });
    assert.equal((twice.result as { content: string }).content, 'at last');
    assert.equal(twice.bodies.length, 3);
    const thrice = await chat([busy, busy, busy, streamed()], 'gpt-4o', {});
    assert.ok(thrice.result instanceof ServiceError && thrice.result.status === 429);
    assert.equal(thrice.bodies.length, 3);
    const tooLong = await chat([busy], 'gpt-4o', {}, { maxRetryWaitMs: 999 });
    assert.ok(tooLong.result instanceof ServiceError);
    assert.equal(tooLong.bodies.length, 1);
  });

  it('returns what it has, marked stopped, when the user stops during a rate-limit wait', async () => {
    const stop = new AbortController();
    const ticks: number[] = [];
    const { result, bodies } = await chat([status(429, { 'retry-after-ms': '5000' })], 'gpt-4o', {}, {
      signal: stop.signal,
      onRetryWait: (s) => {
        ticks.push(s);
        stop.abort();
      },
    });
    assert.deepEqual([(result as { stopped: boolean }).stopped, bodies.length, ticks], [true, 1, [5]]);
  });
});
