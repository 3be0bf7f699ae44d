/**
 * The language model provider against streams as the service really sends them, over a scripted
 * loopback server: chunks without a model or without choices, Azure's filter annotations without
 * a delta, tool calls that arrive before the stream breaks or without a finish reason, a service
 * that keeps refusing, a rate limit, and Responses function calls without ids.
 */
import assert from 'node:assert/strict';
import type { Server, ServerResponse } from 'node:http';
import { ApiMemory } from '../../src/chat/apiMemory';
import { runLmChat, type LmChatInput } from '../support/lmRun';
import type { NeutralMessage } from '../../src/chat/engine/messages';
import type { CompletedToolCall } from '../../src/chat/engine/toolCalls';
import { AzureOpenAIClient } from '../../src/service/client';
import { recordingServer, refuseParameter } from '../support/bodyRecorder';

const messages: NeutralMessage[] = [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
const sse = (frame: unknown) => `data: ${JSON.stringify(frame)}\n\n`;
const responseEvent = (e: Record<string, unknown>) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;

describe('language model provider: streams as the service sends them', () => {
  const servers: Server[] = [];
  const clients: AzureOpenAIClient[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    servers.forEach((s) => s.close());
  });

  /** Runs one request against a server answering with `reply`; what the consumer saw, and what was sent. */
  async function run(reply: (body: Record<string, unknown>, res: ServerResponse, n: number) => void, extra: Partial<LmChatInput> = {}) {
    const s = await recordingServer(reply);
    servers.push(s.server);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    clients.push(client);
    const text: string[] = [];
    const calls: CompletedToolCall[] = [];
    const tools = [{ name: 'now', description: 'The time' }, { name: 'add', description: 'Adds' }];
    const done = runLmChat({
      client,
      deployment: 'chat',
      model: 'gpt-4o',
      messages,
      tools,
      apiMemory: new ApiMemory(),
      signal: new AbortController().signal,
      onText: (t) => text.push(t),
      onToolCall: (c) => calls.push(c),
      ...extra,
    });
    return { done, text, calls, bodies: s.bodies };
  }

  it("reports the first choice's text only, keeps the model named once, and takes chunks without choices or without a delta", async () => {
    const r = await run((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse({ choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] }));
      res.write(sse({ model: 'gpt-4o-2024-11-20', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }] }));
      res.write(sse({ choices: [{ index: 1, delta: { content: 'another choice' } }, { index: 0, delta: { content: 'lo' } }] }));
      res.write(sse({ choices: [{ index: 0, finish_reason: null, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] }));
      res.write(sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      res.write(sse({ usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }));
      res.end('data: [DONE]\n\n');
    });
    const result = await r.done;
    assert.deepEqual(r.text, ['Hel', 'lo']);
    assert.equal(result.model, 'gpt-4o-2024-11-20');
    assert.equal(result.usage?.total_tokens, 5);
    assert.equal(result.finishReason, 'stop');
  });

  it('a call the model finished goes out even if the stream then breaks; one with no finish reason goes out at the end', async () => {
    const broken = await run((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'now', arguments: '{}' } }] } }] }));
      res.write(sse({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }));
      setTimeout(() => res.destroy(), 20);
    });
    await assert.rejects(broken.done);
    assert.deepEqual(broken.calls, [{ callId: 'call_1', name: 'now', input: {} }]);
    const unfinished = await run((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { name: 'now', arguments: '' } }] } }] }));
      res.end('data: [DONE]\n\n');
    });
    await unfinished.done;
    assert.deepEqual(unfinished.calls, [{ callId: 'call_2', name: 'now', input: {} }]);
  });

  it('a service that keeps refusing is asked six times at most (the one limit both chats share), then its refusal is reported', async () => {
    // It refuses whichever token limit it gets: each adaptation swaps one for the other.
    const r = await run((body, res) => refuseParameter(res, body.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens'), { modelOptions: { maxTokens: 100 } });
    await assert.rejects(r.done, /max_(completion_)?tokens.*The service kept rejecting the request parameters\./);
    assert.equal(r.bodies.length, 6);
  });

  it('a rate limit on the Responses route is reported at once, not waited out and resent', async () => {
    const r = await run(
      (_b, res) => {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { code: '429', message: 'Rate limit is exceeded. Try again in 1 seconds.' } }));
      },
      { model: 'gpt-5-codex', deployment: 'codex' },
    );
    await assert.rejects(r.done, (e: Error & { status?: number }) => e.status === 429);
    assert.equal(r.bodies.length, 1);
  });

  it('Responses function calls without ids are numbered in order, without arguments taken as none; a failure without details still says so', async () => {
    const item = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function_call', name, ...extra });
    const ok = await run(
      (_b, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(responseEvent({ type: 'response.output_item.done', sequence_number: 0, output_index: 0, item: item('now') }));
        res.write(responseEvent({ type: 'response.output_item.done', sequence_number: 1, output_index: 1, item: item('add', { arguments: '{"a":1}' }) }));
        res.end(responseEvent({ type: 'response.completed', sequence_number: 2, response: { id: 'r', status: 'completed' } }));
      },
      { model: 'gpt-5-codex', deployment: 'codex' },
    );
    await ok.done;
    assert.deepEqual(ok.calls, [
      { callId: 'call_0', name: 'now', input: {} },
      { callId: 'call_1', name: 'add', input: { a: 1 } },
    ]);
    const nameless = await run(
      (_b, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(responseEvent({ type: 'response.output_item.done', sequence_number: 0, output_index: 0, item: { type: 'function_call', call_id: 'c' } }));
      },
      { model: 'gpt-5-codex', deployment: 'codex' },
    );
    await assert.rejects(nameless.done, /tool call #1 has no tool name/);
    const failed = await run(
      (_b, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(responseEvent({ type: 'response.failed', sequence_number: 0, response: { id: 'r', status: 'failed' } }));
      },
      { model: 'gpt-5-codex', deployment: 'codex' },
    );
    await assert.rejects(failed.done, (e: Error & { code?: string }) => e.code === 'failed' && /the response failed/.test(e.message));
  });
});
