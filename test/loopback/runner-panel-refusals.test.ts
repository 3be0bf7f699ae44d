/**
 * The chat runner with the panel's options on the Responses API when the service refuses,
 * rate-limits or breaks off, with answers the emulator does not give on demand: a loopback server
 * scripted per test records each request the runner sends.
 */
import assert from 'node:assert/strict';
import type { Server, ServerResponse } from 'node:http';
import { errorInfo } from '../../src/chat/engine/result';
import { runPanelChat, type PanelRunInput } from '../support/panelRun';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import type { ChatMessage } from '../../src/service/types';
import { recordingServer } from '../support/bodyRecorder';

type Answer = (res: ServerResponse) => void;

const sse = (...events: Array<Record<string, unknown>>) => events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const created = { type: 'response.created', sequence_number: 0, response: { id: 'resp_new', status: 'in_progress' } };
/** A streamed reply saying `text`. */
const answered = (text: string): Answer => (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(sse(
    created,
    { type: 'response.output_text.delta', sequence_number: 1, delta: text },
    { type: 'response.completed', sequence_number: 2, response: { id: 'resp_new', status: 'completed', model: 'm', usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 } } },
  ));
};
const refused = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}): Answer => (res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'scripted refusal', ...error } }));
};
const rateLimited = (ms: number) => refused(429, { code: '429', message: 'Rate limit reached.' }, { 'retry-after-ms': String(ms) });
/** A stream that starts, then says `events` (its end or an error). */
const startedThen = (...events: Array<Record<string, unknown>>): Answer => (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(sse(created, ...events));
};

describe('chat runner with the panel\'s options on the Responses API: refusals, rate limits and broken streams (scripted service)', () => {
  const servers: Server[] = [];
  const clients: AzureOpenAIClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  /** A service answering each request with the next of `answers` (the last one repeats). */
  async function service(answers: Answer[]) {
    const rec = await recordingServer((_body, res, n) => answers[Math.min(n, answers.length) - 1]!(res));
    servers.push(rec.server);
    const client = new AzureOpenAIClient({ endpoint: rec.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    clients.push(client);
    return { client, bodies: rec.bodies };
  }

  const history: ChatMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'first answer' },
    { role: 'user', content: 'and now?' },
  ];
  const continuing = { previousResponseId: 'resp_stored', messages: [{ role: 'user', content: 'and now?' }] as ChatMessage[] };
  const input = (client: AzureOpenAIClient, extra: Partial<PanelRunInput> = {}): PanelRunInput => ({
    client, deployment: 'team-model', messages: history, params: { systemPrompt: 'Be brief.', route: 'v1', api: 'responses' }, signal: new AbortController().signal, onDelta: () => {}, ...extra,
  });

  it('an answer shows its text, is not marked stopped, and its latency is no longer than the wait', async () => {
    const { client } = await service([answered('Hello there')]);
    const before = Date.now();
    const r = await runPanelChat(input(client));
    const waited = Date.now() - before;
    assert.equal(r.content, 'Hello there');
    assert.equal(r.stopped, false);
    assert.ok(r.latencyMs >= 0 && r.latencyMs <= waited, `latency ${r.latencyMs} ms within the ${waited} ms waited`);
  });

  it('a rate limit while continuing is waited out with a countdown, and the stored reply is still continued from', async () => {
    const { client, bodies } = await service([rateLimited(1000), answered('Continued')]);
    const ticks: number[] = [];
    const r = await runPanelChat(input(client, { continuation: continuing, onRetryWait: (s) => ticks.push(s) }));
    assert.equal(r.content, 'Continued');
    assert.deepEqual(ticks, [1], 'the countdown showed the wait');
    assert.equal(bodies.length, 2);
    assert.equal(bodies[1]!.previous_response_id, 'resp_stored', 'only the new message was sent again');
    assert.equal((bodies[1]!.input as unknown[]).length, 1);
  });

  for (const [how, error] of [
    ['by its code', { code: 'previous_response_not_found', message: "Previous response with id 'resp_stored' not found." }],
    ['by its parameter', { code: 'invalid_value', param: 'previous_response_id', message: 'The previous response is not available.' }],
  ] as const) {
    it(`the stored reply gone (said ${how}): the whole conversation is sent instead, and answered`, async () => {
      const { client, bodies } = await service([refused(400, error), answered('From the top')]);
      const r = await runPanelChat(input(client, { continuation: continuing }));
      assert.equal(r.content, 'From the top');
      assert.equal(bodies.length, 2);
      assert.equal(bodies[1]!.previous_response_id, undefined);
      assert.deepEqual((bodies[1]!.input as Array<{ content: string }>).map((i) => i.content), ['first question', 'first answer', 'and now?']);
    });
  }

  it('a refusal of something else is not mistaken for a lost stored reply', async () => {
    const { client, bodies } = await service([refused(400, { code: 'invalid_value', param: 'input', message: 'Invalid input.' })]);
    await assert.rejects(runPanelChat(input(client, { continuation: continuing })), (e: unknown) => e instanceof ServiceError && e.status === 400 && /Invalid input/.test(e.message));
    assert.equal(bodies.length, 1);
  });

  it('Stop during a rate-limit countdown ends the reply as stopped, without an error and without another request', async () => {
    const { client, bodies } = await service([rateLimited(3000), answered('too late')]);
    const ac = new AbortController();
    const r = await runPanelChat(input(client, { signal: ac.signal, onRetryWait: () => ac.abort() }));
    assert.equal(r.stopped, true);
    assert.equal(r.content, '');
    assert.equal(bodies.length, 1);
  });

  it('a reply refused again and again gives up after six requests with a clear message', async () => {
    const { client, bodies } = await service([
      refused(400, { code: 'unsupported_parameter', param: 'temperature' }),
      refused(400, { code: 'unsupported_parameter', param: 'top_p' }),
      refused(400, { code: 'unsupported_parameter', param: 'reasoning.effort' }),
      refused(400, { code: 'previous_response_not_found', param: 'previous_response_id' }),
      rateLimited(1000),
      rateLimited(1000),
      answered('a seventh request was sent'),
    ]);
    const params = { systemPrompt: 'Be brief.', route: 'v1' as const, api: 'responses' as const, temperature: 0.5, topP: 0.9, reasoningEffort: 'high' as const };
    await assert.rejects(runPanelChat(input(client, { params, continuation: continuing })), /The service kept rejecting the request parameters/);
    assert.equal(bodies.length, 6);
  });

  it('a failed response shows the service\'s own message, or says it failed when the service gives none', async () => {
    const failing = (error?: object) => startedThen({ type: 'response.failed', sequence_number: 1, response: { id: 'resp_new', status: 'failed', ...(error ? { error } : {}) } });
    const { client } = await service([failing({ code: 'server_error', message: 'The model crashed.' }), failing()]);
    const said = async () => {
      try {
        await runPanelChat(input(client));
      } catch (e) {
        return errorInfo(e).message;
      }
      assert.fail('a failed response must not read as an answer');
    };
    const first = await said();
    assert.match(first, /server_error/);
    assert.match(first, /The model crashed\./);
    const second = await said();
    assert.match(second, /\(failed\)/);
    assert.match(second, /the response failed/);
  });

  it('a continuation whose stream broke after it started is never sent again, not even as the whole conversation', async () => {
    const { client, bodies } = await service([startedThen({ type: 'error', code: 'previous_response_not_found', message: 'lost mid-way' }), answered('sent twice')]);
    await assert.rejects(runPanelChat(input(client, { continuation: continuing })), (e: unknown) => e instanceof ServiceError && e.kind === 'stream');
    assert.equal(bodies.length, 1);
  });
});
