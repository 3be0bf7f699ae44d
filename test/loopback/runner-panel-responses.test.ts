/** The chat runner with the panel's options on the Responses API, against the emulator (and one loopback server that cuts a stream). */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiMemory } from '../../src/chat/apiMemory';
import { errorInfo } from '../../src/chat/engine/result';
import { runPanelChat } from '../support/panelRun';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import type { ChatMessage } from '../../src/service/types';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

describe('chat runner with the panel\'s options on the Responses API', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: {
      deployments: [
        deployment('gpt-4o', 'gpt-4o'),
        deployment('gpt-5-codex', 'gpt-5-codex'),
        // Names that do not reveal the model: the engine learns from the service's refusals.
        deployment('coder', 'gpt-5-codex'),
        deployment('thinker', 'o3-mini'),
      ],
    },
  })));
  after(() => closeAll(client, emu));

  const base = { systemPrompt: 'Be brief.', route: 'v1' as const };
  const conversation = (last: string): ChatMessage[] => [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'first answer' },
    { role: 'user', content: last },
  ];

  it('a Responses-only model answers through the Responses API: text, reasoning summary and reasoning tokens stream in', async () => {
    const text: string[] = [];
    const thoughts: string[] = [];
    const r = await runPanelChat({
      client,
      deployment: 'gpt-5-codex',
      messages: conversation('/code python'),
      params: base,
      signal: new AbortController().signal,
      onDelta: (t) => text.push(t),
      onReasoning: (t) => thoughts.push(t),
    });
    assert.equal(r.api, 'responses');
    assert.match(r.content, /```python\ndef fib/);
    assert.equal(text.join(''), r.content);
    assert.ok(thoughts.length > 1, 'the summary streams in pieces');
    assert.equal(thoughts.join(''), r.reasoningSummary);
    assert.match(r.reasoningSummary ?? '', /The user asked: "\/code python"/);
    assert.equal(r.usage?.completion_tokens_details?.reasoning_tokens, 192);
    assert.ok(r.usage && r.usage.completion_tokens > 192 && r.usage.prompt_tokens > 10);
    assert.equal(r.finishReason, 'stop');
    assert.match(r.responseId ?? '', /^resp_/);
    assert.equal(r.notes, undefined, 'nothing had to change');
  });

  it('a deployment whose name hides a Responses-only model: refused on Chat Completions, switched, said, and remembered', async () => {
    const memory = new ApiMemory();
    const before = emu.stats.requests;
    const first = await runPanelChat({ client, deployment: 'coder', messages: conversation('hello'), params: base, signal: new AbortController().signal, onDelta: () => {}, apiMemory: memory });
    assert.equal(first.api, 'responses');
    assert.match(first.content, /You said: hello/);
    assert.match(first.notes?.join(' ') ?? '', /served only on the Responses API/);
    assert.equal(emu.stats.requests - before, 2, 'one refused chat request, one response');
    const again = await runPanelChat({ client, deployment: 'coder', messages: conversation('again'), params: base, signal: new AbortController().signal, onDelta: () => {}, apiMemory: memory });
    assert.equal(emu.stats.requests - before, 3, 'the second reply goes straight to the Responses API');
    assert.equal(again.notes, undefined);
  });

  it('the Responses route chosen for a chat model: the token limit becomes max_output_tokens (at least 16, said so)', async () => {
    const r = await runPanelChat({
      client,
      deployment: 'gpt-4o',
      messages: conversation('/long 200'),
      params: { ...base, api: 'responses', maxTokens: 5, temperature: 0.3 },
      signal: new AbortController().signal,
      onDelta: () => {},
    });
    assert.equal(r.api, 'responses');
    assert.equal(r.finishReason, 'length');
    assert.equal(r.usage?.completion_tokens, 16);
    assert.match(r.notes?.join(' ') ?? '', /raised from 5 to 16/);
  });

  it('parameters a reasoning model refuses are left out, and the reply says so', async () => {
    const r = await runPanelChat({
      client,
      deployment: 'thinker',
      messages: conversation('hi'),
      params: { ...base, api: 'responses', temperature: 0.5, topP: 0.9, reasoningEffort: 'high' },
      signal: new AbortController().signal,
      onDelta: () => {},
    });
    assert.match(r.content, /You said: hi/);
    assert.match(r.notes?.join(' ') ?? '', /Temperature was left out/);
    assert.match(r.notes?.join(' ') ?? '', /Top P was left out/);
    assert.equal(r.usage?.completion_tokens_details?.reasoning_tokens, 640, 'the effort chosen was sent');
  });

  it('a failed response becomes an error a person can act on', async () => {
    await assert.rejects(
      runPanelChat({ client, deployment: 'gpt-5-codex', messages: conversation('/fail'), params: base, signal: new AbortController().signal, onDelta: () => {} }),
      (e: unknown) => {
        const info = errorInfo(e);
        return e instanceof ServiceError && info.kind === 'stream' && /server_error/.test(info.message) && /Try again/.test(info.message);
      },
    );
    await assert.rejects(
      runPanelChat({ client, deployment: 'missing', messages: conversation('x'), params: { ...base, api: 'responses' }, signal: new AbortController().signal, onDelta: () => {} }),
      (e: unknown) => e instanceof ServiceError && e.status === 404 && /does not exist/.test(e.message),
    );
  });

  it('continues from the stored reply with previous_response_id, and sends the whole history when it is gone', async () => {
    const go = (extra: object) =>
      runPanelChat({
        client,
        deployment: 'gpt-4o',
        messages: conversation('and now?'),
        params: { ...base, api: 'responses' },
        signal: new AbortController().signal,
        onDelta: () => {},
        ...extra,
      });
    const first = await runPanelChat({ client, deployment: 'gpt-4o', messages: conversation('first'), params: { ...base, api: 'responses' }, signal: new AbortController().signal, onDelta: () => {} });
    const continued = await go({ continuation: { previousResponseId: first.responseId, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'and now?' }] } });
    assert.match(continued.content, /You said: and now\?/);
    assert.ok(continued.usage!.prompt_tokens >= first.usage!.prompt_tokens + first.usage!.completion_tokens, 'the stored turns count as input');
    const before = emu.stats.requests;
    const fallback = await go({ continuation: { previousResponseId: 'resp_gone', messages: [{ role: 'user', content: 'and now?' }] } });
    assert.match(fallback.content, /You said: and now\?/);
    assert.equal(emu.stats.requests - before, 2, 'refused once, then sent whole');
    const whole = await go({});
    assert.equal(fallback.usage!.prompt_tokens, whole.usage!.prompt_tokens, 'the fallback sent the full history');
  });

  it('Stop ends the stream at once and keeps what arrived', async () => {
    const slow = await startEmulator({ config: { streamTokenDelayMs: 5 } });
    const c = new AzureOpenAIClient({ endpoint: slow.url, auth: { kind: 'apiKey', apiKey: slow.apiKey } });
    try {
      const ac = new AbortController();
      let seen = 0;
      const r = await runPanelChat({ client: c, deployment: 'gpt-5-codex', messages: conversation('/long 3000'), params: base, signal: ac.signal, onDelta: () => ++seen === 10 && ac.abort() });
      assert.equal(r.stopped, true);
      assert.ok(r.content.length > 0 && r.reasoningSummary);
      assert.ok(seen < 100, 'nothing more arrived after Stop');
    } finally {
      await c.close();
      await slow.close();
    }
  });

  it('a stream cut after its first event is reported, never sent again', async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress"}}\n\n');
      res.write('event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":1,"delta":"Hel"}\n\n');
      setTimeout(() => res.destroy(), 20);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const c = new AzureOpenAIClient({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, auth: { kind: 'apiKey', apiKey: 'k' } });
    try {
      const seen: string[] = [];
      await assert.rejects(
        runPanelChat({ client: c, deployment: 'gpt-5-codex', messages: conversation('x'), params: base, signal: new AbortController().signal, onDelta: (t) => seen.push(t) }),
        (e: unknown) => e instanceof ServiceError && (e.kind === 'stream' || e.kind === 'network'),
      );
      assert.deepEqual(seen, ['Hel']);
      assert.equal(requests, 1);
    } finally {
      await c.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
