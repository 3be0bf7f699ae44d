/**
 * The runner's usage and latency report, one per request sent, against the emulator (real rate
 * limits and headers) and a scripted loopback service (cached tokens, filters, failures): what
 * the usage log will record, and never a prompt, a reply or a key.
 */
import assert from 'node:assert/strict';
import type { Server, ServerResponse } from 'node:http';
import { ApiMemory } from '../../src/chat/apiMemory';
import { PANEL_RUN, VSCODE_CHAT_RUN, type RunnerOptions } from '../../src/chat/engine/options';
import type { RequestReport } from '../../src/chat/engine/report';
import { runChat, type RunRequest } from '../../src/chat/engine/runner';
import type { Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { recordingServer, refuseParameter } from '../support/bodyRecorder';
import { refusesParam, scripted, status, streamed } from '../support/scriptedServer';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

const ask = (text: string): RunRequest['messages'] => [{ role: 'user', parts: [{ type: 'text', text }] }];

describe('chat runner: one report per request (emulator)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: {
      rateLimitWindowSeconds: 30,
      deployments: [
        deployment('chat', 'gpt-4o', { version: '2024-11-20' }),
        deployment('codex', 'gpt-5-codex'),
        deployment('scarce', 'gpt-4o', { requestsPerMinute: 1 }),
      ],
    },
  })));
  after(() => closeAll(client, emu));

  async function run(request: Partial<RunRequest>, options: RunnerOptions = VSCODE_CHAT_RUN) {
    const reports: RequestReport[] = [];
    const text: string[] = [];
    const done = runChat(
      {
        client,
        deployment: 'chat',
        messages: ask('hello runner'),
        sampling: {},
        signal: new AbortController().signal,
        onText: (t) => text.push(t),
        onReport: (r) => reports.push(r),
        apiMemory: new ApiMemory(),
        ...request,
      },
      options,
    );
    return { done, reports, text };
  }

  it('an answer on Chat Completions: who, which API and route, tokens, first token before the end, ok, and the headroom the service reported', async () => {
    const before = Date.now();
    const { done, reports } = await run({ connection: 'conn-1', model: 'gpt-4o', route: 'deployment', apiVersion: '2024-10-21' });
    const result = await done;
    assert.equal(reports.length, 1);
    const [r] = reports;
    assert.deepEqual(
      {
        source: r.source,
        connection: r.connection,
        deployment: r.deployment,
        model: r.model,
        api: r.api,
        route: r.route,
        attempt: r.attempt,
        outcome: r.outcome,
      },
      { source: 'vscode-chat', connection: 'conn-1', deployment: 'chat', model: 'gpt-4o-2024-11-20', api: 'chat', route: 'deployment', attempt: 1, outcome: 'ok' },
    );
    assert.deepEqual(r.tokens, { prompt: result.usage!.prompt_tokens, cached: 0, completion: result.usage!.completion_tokens, reasoning: 0 });
    assert.ok(r.tokens!.prompt > 0 && r.tokens!.completion > 0);
    assert.ok(r.startedAt >= before && r.startedAt <= Date.now());
    assert.ok(r.firstTokenMs !== undefined && r.firstTokenMs >= 0 && r.firstTokenMs <= r.totalMs, `first ${r.firstTokenMs} of ${r.totalMs} ms`);
    assert.ok(r.rateLimit.remainingRequests !== undefined && r.rateLimit.remainingRequests < 1000, JSON.stringify(r.rateLimit));
    assert.ok(r.rateLimit.remainingTokens !== undefined && r.rateLimit.remainingTokens < 1e7);
    assert.equal(r.status, undefined);
    assert.equal('reasoningSummary' in result || 'responseId' in result, false, 'Chat Completions has neither');
    const said = JSON.stringify(r);
    assert.ok(!said.includes('hello runner') && !said.includes('You said') && !said.includes(emu.apiKey), 'no prompt, reply or key in a report');
  });

  it('an answer on the Responses API: reasoning tokens apart, the v1 route, the panel as its source', async () => {
    const { done, reports } = await run({ deployment: 'codex', model: 'gpt-5-codex', route: 'deployment' }, PANEL_RUN);
    const result = await done;
    assert.equal(result.api, 'responses');
    const [r] = reports;
    assert.deepEqual([r.source, r.api, r.route, r.outcome, r.model], ['panel', 'responses', 'v1', 'ok', result.model]);
    assert.ok(r.tokens!.reasoning > 0 && r.tokens!.reasoning === result.usage!.completion_tokens_details!.reasoning_tokens);
    assert.equal(r.connection, undefined, 'no connection named, none reported');
  });

  it('a 429 surfaced at once reports its wait and the headroom the refusal carried', async () => {
    await (await run({ deployment: 'scarce' })).done;
    const surfaced = await run({ deployment: 'scarce', model: 'gpt-4o' });
    await assert.rejects(surfaced.done, (e: Error & { status?: number }) => e.status === 429);
    const [r] = surfaced.reports;
    assert.deepEqual([surfaced.reports.length, r.outcome, r.status, r.model], [1, 'rate_limited', 429, 'gpt-4o']);
    assert.ok(r.retryAfterMs! > 1000, `waits ${r.retryAfterMs} ms`);
    assert.equal(r.firstTokenMs, undefined, 'nothing arrived');
    assert.equal(r.tokens, undefined);
    assert.equal(r.rateLimit.remainingRequests, 0, 'the refusal carried the headroom too');
  });

  it('a reply the user stops is reported as stopped, with what was counted so far', async () => {
    const ac = new AbortController();
    const { done, reports } = await run({ messages: ask('/long 3000'), signal: ac.signal, onText: () => ac.abort() });
    const result = await done;
    assert.equal(result.stopped, true);
    assert.deepEqual(reports.map((r) => r.outcome), ['stopped']);
    assert.ok(reports[0].firstTokenMs !== undefined);
  });

  it("a listener that throws does not break the reply", async () => {
    const { done } = await run({ onReport: () => { throw new Error('a broken usage log'); } });
    assert.match((await done).content, /You said: hello runner/);
  });
});

describe('chat runner: reports and refusals on a scripted service', () => {
  const servers: Server[] = [];
  const clients: AzureOpenAIClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  async function service(reply: (body: Record<string, unknown>, res: ServerResponse, n: number) => void) {
    const s = await recordingServer(reply);
    servers.push(s.server);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    clients.push(client);
    return { client, bodies: s.bodies };
  }
  const chunk = (c: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-x', ...c })}\n\n`;
  const sse = (e: Record<string, unknown>) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;

  async function run(client: AzureOpenAIClient, request: Partial<RunRequest>, options: RunnerOptions) {
    const reports: RequestReport[] = [];
    const calls: string[] = [];
    const done = runChat(
      {
        client,
        deployment: 'dep',
        model: 'gpt-4o',
        messages: ask('hi'),
        sampling: {},
        signal: new AbortController().signal,
        onText: () => {},
        onToolCall: (c) => calls.push(c.name),
        onReport: (r) => reports.push(r),
        apiMemory: new ApiMemory(),
        ...request,
      },
      options,
    );
    return { done: done.catch((e: unknown) => e as Error), reports, calls };
  }

  it('cached prompt tokens are reported on both APIs, and headers that are not numbers are left out', async () => {
    const { client } = await service((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-ratelimit-remaining-requests': ' 41 ', 'x-ratelimit-remaining-tokens': 'lots' });
      if (body.input) {
        const cache = JSON.stringify(body).includes('no cache') ? {} : { input_tokens_details: { cached_tokens: 32 } };
        const usage = { input_tokens: 50, output_tokens: 4, total_tokens: 54, ...cache, output_tokens_details: { reasoning_tokens: 2 } };
        res.end(
          sse({ type: 'response.output_text.delta', sequence_number: 0, delta: 'ok' }) +
            sse({ type: 'response.completed', sequence_number: 1, response: { id: 'r', status: 'completed', model: 'm', usage } }),
        );
        return;
      }
      res.end(
        chunk({ choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] }) +
          chunk({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 1, total_tokens: 41, prompt_tokens_details: { cached_tokens: 16 } } }) +
          'data: [DONE]\n\n',
      );
    });
    const chat = await run(client, {}, PANEL_RUN);
    await chat.done;
    assert.deepEqual(chat.reports[0].tokens, { prompt: 40, cached: 16, completion: 1, reasoning: 0 });
    assert.deepEqual(chat.reports[0].rateLimit, { remainingRequests: 41 });
    const responses = await run(client, { api: 'responses' }, PANEL_RUN);
    const result = await responses.done;
    assert.deepEqual(responses.reports[0].tokens, { prompt: 50, cached: 32, completion: 4, reasoning: 2 });
    assert.equal((result as { usage?: { prompt_tokens_details?: object } }).usage?.prompt_tokens_details !== undefined, true);
    const uncached = await run(client, { api: 'responses', messages: ask('no cache') }, PANEL_RUN);
    assert.deepEqual(
      ((await uncached.done) as { usage?: object }).usage,
      { prompt_tokens: 50, completion_tokens: 4, total_tokens: 54, completion_tokens_details: { reasoning_tokens: 2 } },
    );
  });

  it('an adapted resend is a request of its own: a failed report with its status, then the answer as attempt 2', async () => {
    const { client } = await service((_b, res, n) => {
      if (n === 1) return refuseParameter(res, 'top_p');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk({ choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] }) + 'data: [DONE]\n\n');
    });
    const r = await run(client, { sampling: { topP: 0.5 } }, VSCODE_CHAT_RUN);
    await r.done;
    assert.deepEqual(r.reports.map((x) => [x.attempt, x.outcome, x.status, x.route, x.api]), [[1, 'failed', 400, 'v1', 'chat'], [2, 'ok', undefined, 'v1', 'chat']]);
  });

  it('a 429 the panel waits out: each request has its own report, the wait on the refused one', async () => {
    const { client } = await service((_b, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '1000', 'x-ratelimit-remaining-requests': '0' });
        res.end(JSON.stringify({ error: { code: '429', message: 'Rate limit reached.' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk({ choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] }) + 'data: [DONE]\n\n');
    });
    const ticks: number[] = [];
    const r = await run(client, { onRetryWait: (s) => ticks.push(s) }, PANEL_RUN);
    await r.done;
    assert.deepEqual(ticks, [1]);
    assert.deepEqual(
      r.reports.map((x) => [x.attempt, x.outcome, x.status, x.retryAfterMs, x.rateLimit.remainingRequests]),
      [[1, 'rate_limited', 429, 1000, 0], [2, 'ok', undefined, undefined, undefined]],
    );
  });

  it('the content filter: the same words end the reply in VS Code\'s chat and are noted on the panel\'s reply, and both report it', async () => {
    const { client } = await service((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        chunk({ choices: [{ index: 0, delta: { content: 'Once upon' } }] }) +
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: { violence: { filtered: true } } }] }) +
          'data: [DONE]\n\n',
      );
    });
    const vscodeChat = await run(client, {}, VSCODE_CHAT_RUN);
    const error = (await vscodeChat.done) as Error;
    assert.equal(error.name, 'ReplyFilteredError');
    const panel = await run(client, {}, PANEL_RUN);
    const reply = (await panel.done) as { content: string; notes?: string[]; finishReason: string };
    assert.deepEqual([reply.content, reply.finishReason, reply.notes], ['Once upon', 'content_filter', [error.message]]);
    assert.match(error.message, /stopped the reply of "dep" part way: violence in the reply\. Ask again in other words/);
    assert.deepEqual([vscodeChat.reports[0].outcome, panel.reports[0].outcome], ['content_filter', 'content_filter']);
  });

  it('what differs by option only: the panel stores its Responses replies and asks for a summary of the thinking, VS Code\'s chat does neither', async () => {
    const { client, bodies } = await service((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse({ type: 'response.completed', sequence_number: 0, response: { id: 'r', status: 'completed' } }));
    });
    const request = { model: 'o3', api: 'responses' as const, sampling: { temperature: 0.2, reasoningEffort: 'low' as const } };
    await (await run(client, request, PANEL_RUN)).done;
    await (await run(client, request, VSCODE_CHAT_RUN)).done;
    assert.deepEqual(bodies.map((b) => [b.store, b.reasoning, 'temperature' in b]), [[true, { summary: 'auto', effort: 'low' }, false], [false, { effort: 'low' }, false]]);
  });

  it('the deployment route goes to the deployment\'s path with its api-version; what the service did not say is not in the result or the report', async () => {
    const s = await scripted([
      refusesParam('top_p'),
      (_q, res) =>
        res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end('data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'),
    ]);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    clients.push(client);
    try {
      const r = await run(client, { model: undefined, route: 'deployment', apiVersion: '2024-10-21', sampling: { topP: 0.5 } }, VSCODE_CHAT_RUN);
      const result = await r.done;
      assert.deepEqual(s.requests.map((q) => q.url), ['/openai/deployments/dep/chat/completions?api-version=2024-10-21', '/openai/deployments/dep/chat/completions?api-version=2024-10-21']);
      assert.deepEqual(Object.keys(result).sort(), ['api', 'content', 'finishReason', 'latencyMs', 'notes', 'stopped']);
      assert.deepEqual(Object.keys(r.reports[0]).sort(), ['api', 'attempt', 'deployment', 'outcome', 'rateLimit', 'route', 'source', 'startedAt', 'status', 'totalMs']);
    } finally {
      await s.close();
    }
  });

  it('in the panel, a refusal that is neither adaptable nor a 429 is reported as it is, even at the limit', async () => {
    const flipFlop = Array.from({ length: 5 }, (_, i) => refusesParam(i % 2 ? 'max_tokens' : 'max_completion_tokens'));
    const s = await scripted([...flipFlop, status(400), streamed()]);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    clients.push(client);
    try {
      const err = (await (await run(client, { model: 'o3-mini', sampling: { maxTokens: 10 } }, PANEL_RUN)).done) as Error;
      assert.equal(s.requests.length, 6);
      assert.match(err.message, /HTTP 400/);
      assert.doesNotMatch(err.message, /kept rejecting/);
    } finally {
      await s.close();
    }
  });

  it('a call to a tool the request never offered is refused with a clear message, on both APIs; offered ones go through', async () => {
    const { client } = await service((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const name = JSON.stringify(body).includes('lookup') ? 'lookup' : 'rm_rf';
      if (body.input) {
        res.end(
          sse({ type: 'response.output_item.done', sequence_number: 0, item: { type: 'function_call', call_id: 'c1', name, arguments: '{}' } }) +
            sse({ type: 'response.completed', sequence_number: 1, response: { id: 'r', status: 'completed' } }),
        );
        return;
      }
      res.end(
        chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name, arguments: '{}' } }] }, finish_reason: 'tool_calls' }] }) +
          'data: [DONE]\n\n',
      );
    });
    const offered = { tools: [{ name: 'lookup', description: 'Looks up' }] };
    for (const api of ['chat', 'responses'] as const) {
      const invented = await run(client, { api }, VSCODE_CHAT_RUN);
      const err = (await invented.done) as Error;
      assert.equal(err.name, 'UnofferedToolError', api);
      assert.match(err.message, /The model of "dep" called a tool "rm_rf" that this request did not offer, so the call was not made\. Send the request again\./);
      assert.deepEqual(invented.calls, [], `${api}: nothing handed on`);
      assert.equal(invented.reports[0].outcome, 'failed');
      const fine = await run(client, { api, ...offered }, VSCODE_CHAT_RUN);
      await fine.done;
      assert.deepEqual(fine.calls, ['lookup'], api);
      assert.ok(fine.reports[0].firstTokenMs !== undefined, `${api}: a tool call is the first thing to arrive`);
    }
  });
});
