/**
 * A chat turn's trace, built from what the runner reports, against the emulator (a real 429 and a
 * real tool round trip), and the same spans exported with OpenTelemetry's OTLP/HTTP exporter to a
 * collector on loopback whose JSON is read back.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiMemory } from '../../src/chat/apiMemory';
import type { NeutralMessage, OfferedTool } from '../../src/chat/engine/messages';
import { PANEL_RUN } from '../../src/chat/engine/options';
import { runChat, type RunRequest } from '../../src/chat/engine/runner';
import type { CompletedToolCall } from '../../src/chat/engine/toolCalls';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { TraceBuilder } from '../../src/trace/builder';
import { OtlpTraceSender } from '../../src/trace/otlp';
import type { Trace } from '../../src/trace/span';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

const weather: OfferedTool = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const PROMPT = 'Use get_weather for Oslo';
const TOOL_RESULT = '4 °C and snow over the fjord';

describe('traces: a chat turn with a tool call and a retry (emulator)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: { rateLimitWindowSeconds: 1, deployments: [deployment('tiny', 'gpt-4o', { version: '2024-11-20', requestsPerMinute: 1 })] },
  })));
  after(() => closeAll(client, emu));

  const request = (messages: NeutralMessage[], onToolCall?: (c: CompletedToolCall) => void): RunRequest => ({
    client,
    deployment: 'tiny',
    model: 'gpt-4o',
    messages,
    tools: [weather],
    sampling: {},
    signal: new AbortController().signal,
    onText: () => {},
    onToolCall,
    apiMemory: new ApiMemory(),
  });

  /** One turn as the panel runs it: ask, run the tool the model asked for, ask again with its result. */
  async function turn(captureContent: boolean): Promise<Trace> {
    const trace = new TraceBuilder('turn', 'tiny', { captureContent, server: { address: '127.0.0.1', port: Number(new URL(emu.url).port) } });
    // The deployment's one request of the window is spent: the turn's first request meets a 429 and waits.
    await runChat(request([{ role: 'user', parts: [{ type: 'text', text: 'spend the window' }] }]), PANEL_RUN);
    const calls: CompletedToolCall[] = [];
    const user: NeutralMessage = { role: 'user', parts: [{ type: 'text', text: PROMPT }] };
    const first = await runChat(trace.observe(request([user], (c) => calls.push(c))), PANEL_RUN);
    assert.equal(first.finishReason, 'tool_calls');
    const [call] = calls;
    const start = Date.now();
    trace.tool(call, { start, end: Date.now(), resultBytes: Buffer.byteLength(TOOL_RESULT), result: TOOL_RESULT });
    const history: NeutralMessage[] = [
      user,
      { role: 'assistant', parts: [{ type: 'toolCall', callId: call.callId, name: call.name, input: call.input }] },
      { role: 'user', parts: [{ type: 'toolResult', callId: call.callId, parts: [{ type: 'text', text: TOOL_RESULT }] }] },
    ];
    const answer = await runChat(trace.observe(request(history)), PANEL_RUN);
    return trace.finish({ result: answer, input: [{ role: 'user', parts: [{ type: 'text', content: PROMPT }] }] });
  }

  let plain: Trace;
  before(async () => (plain = await turn(false)));

  it('has a span for each request, the 429 marked with the wait after it, the tool run with its result size, and GenAI attributes', () => {
    const [root, ...spans] = plain.spans;
    assert.match(plain.traceId, /^[0-9a-f]{32}$/);
    assert.ok(spans.every((s) => s.parentSpanId === root.spanId && /^[0-9a-f]{16}$/.test(s.spanId)));
    const names = spans.map((s) => s.name);
    // The answer after the tool may meet the window's 429 too: what comes before it is fixed.
    assert.deepEqual(names.slice(0, 4), ['chat tiny', 'rate limit wait', 'chat tiny', 'execute_tool get_weather'], names.join(', '));
    const [refused, wait, asked, tool] = spans;
    assert.equal(refused.error, 'rate limited (429)');
    assert.equal(refused.attributes['http.response.status_code'], 429);
    assert.equal(refused.attributes['error.type'], '429');
    assert.equal(refused.attributes['aoai_workbench.attempt'], 1);
    assert.ok(wait.start >= refused.end && wait.end <= asked.start, 'the wait lies between the refusal and the resend');
    assert.ok(wait.end - wait.start >= 200, `waited ${wait.end - wait.start} ms`);
    assert.deepEqual(
      [asked.attributes['gen_ai.operation.name'], asked.attributes['gen_ai.provider.name'], asked.attributes['gen_ai.request.model'], asked.attributes['gen_ai.response.model']],
      ['chat', 'azure.ai.openai', 'tiny', 'gpt-4o-2024-11-20'],
    );
    assert.equal(asked.attributes['aoai_workbench.attempt'], 2);
    assert.equal(asked.error, undefined);
    assert.ok((asked.attributes['gen_ai.usage.input_tokens'] as number) > 0 && (asked.attributes['gen_ai.usage.output_tokens'] as number) > 0);
    assert.equal(asked.attributes['server.address'], '127.0.0.1');
    const toolAttributes = ['gen_ai.operation.name', 'gen_ai.tool.name', 'aoai_workbench.tool.result_bytes'].map((k) => tool.attributes[k]);
    assert.deepEqual(toolAttributes, ['execute_tool', 'get_weather', Buffer.byteLength(TOOL_RESULT)]);
    assert.match(String(tool.attributes['gen_ai.tool.call.id']), /^call_/);
    const last = spans.at(-1)!;
    assert.equal(last.name, 'chat tiny');
    assert.deepEqual(last.attributes['gen_ai.response.finish_reasons'], ['stop']);
    assert.ok(root.start <= refused.start && root.end >= last.end);
  });

  it('holds no prompt, tool result or reply unless content is captured', async () => {
    const text = JSON.stringify(plain);
    for (const secret of ['Oslo', 'fjord', 'returned']) assert.ok(!text.includes(secret), `"${secret}" is in the trace`);
    const captured = await turn(true);
    const last = captured.spans.at(-1)!;
    assert.match(String(last.attributes['gen_ai.output.messages']), /fjord/);
    assert.match(String(last.attributes['gen_ai.input.messages']), /Oslo/);
    assert.equal(captured.spans.find((s) => s.name.startsWith('execute_tool'))!.attributes['gen_ai.tool.call.result'], TOOL_RESULT);
  });

  it('exports the same spans over OTLP/HTTP to a collector on loopback', async () => {
    const bodies: Array<{ path: string; type: string; body: string }> = [];
    const collector: Server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        bodies.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const sender = new OtlpTraceSender(`http://127.0.0.1:${(collector.address() as AddressInfo).port}`, '0.1.0');
    try {
      await sender.send([plain]);
      assert.equal(bodies.length, 1);
      const [got] = bodies;
      assert.equal(got.path, '/v1/traces');
      assert.match(got.type, /^application\/json/);
      type Value = { stringValue?: string; intValue?: number | string; arrayValue?: { values: Array<{ stringValue: string }> } };
      type KV = { key: string; value: Value };
      type OtlpSpan = {
        traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
        startTimeUnixNano: string; endTimeUnixNano: string; attributes: KV[]; status: { code?: number; message?: string };
      };
      type Body = { resourceSpans: Array<{ resource: { attributes: KV[] }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }> };
      const json = JSON.parse(got.body) as Body;
      const [rs] = json.resourceSpans;
      assert.ok(rs.resource.attributes.some((a) => a.key === 'service.name' && a.value.stringValue === 'aoai-workbench'));
      const spans = rs.scopeSpans[0].spans;
      assert.equal(rs.scopeSpans[0].scope.name, 'aoai-workbench');
      assert.deepEqual(spans.map((s) => s.name), plain.spans.map((s) => s.name));
      assert.ok(spans.every((s) => s.traceId === plain.traceId));
      const asked = spans[3];
      const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;
      assert.equal(attr(asked, 'gen_ai.request.model')?.stringValue, 'tiny');
      assert.equal(Number(attr(asked, 'gen_ai.usage.input_tokens')?.intValue), plain.spans[3].attributes['gen_ai.usage.input_tokens']);
      assert.equal(asked.parentSpanId, plain.spans[0].spanId);
      assert.equal(asked.kind, 3, 'a client span');
      assert.equal(BigInt(asked.startTimeUnixNano), BigInt(plain.spans[3].start) * 1_000_000n);
      assert.deepEqual([spans[1].status.code, spans[1].status.message], [2, 'rate limited (429)'], 'the 429 is an error span');
      assert.deepEqual(attr(spans.at(-1)!, 'gen_ai.response.finish_reasons')?.arrayValue?.values.map((v) => v.stringValue), ['stop']);
    } finally {
      await sender.shutdown();
      await new Promise((r) => collector.close(r));
    }
  });
});
