/**
 * Reasoning tokens on Chat Completions, as the service bills them: a reasoning deployment's answer
 * counts its thinking in `completion_tokens` and apart in `completion_tokens_details`, plain,
 * streamed and in a batch, by the same rule as the Responses route; `cached_tokens` is always
 * there. Then each place the client shows a request: the panel's footer, VS Code's chat report,
 * the usage record, the usage view and its CSV, Compare's column and a batch's usage records.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiMemory } from '../../src/chat/apiMemory';
import { runCompareRound } from '../../src/chat/compare/compareRun';
import { tokensText } from '../../src/chat/compare/figures';
import type { RequestReport } from '../../src/chat/engine/report';
import { usageRecordOf } from '../../src/chat/engine/usageRecord';
import type { Emulator } from '../../src/emulator/server';
import { downloadResults } from '../../src/jobs/batchResults';
import type { AzureOpenAIClient } from '../../src/service/client';
import { aggregateUsage } from '../../src/usage/aggregate';
import { batchUsageRecords } from '../../src/usage/batchUsage';
import { usageTableCsv } from '../../src/usage/csv';
import { DEFAULT_PRICES, costOf } from '../../src/usage/prices';
import { formatUsage } from '../../src/webview/chat/turnView';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';
import { runLmChat } from '../support/lmRun';
import { panelTurn } from '../support/panelRun';
import { eventually } from '../support/receiver';

type Usage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
};
type Completion = { choices: Array<{ message: { content: string | null }; finish_reason: string }>; usage: Usage };

describe('reasoning tokens on Chat Completions (emulator over loopback)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let dir: string;
  before(async () => {
    ({ emu, client } = await emulatorClient({
      config: { jobs: { stepMs: 20 }, deployments: [deployment('o3-mini', 'o3-mini'), deployment('chat', 'gpt-4o'), deployment('o3-mini-batch', 'o3-mini', { sku: 'GlobalBatch' })] },
    }));
    dir = await mkdtemp(join(tmpdir(), 'reasoning-'));
  });
  after(async () => {
    await closeAll(client, emu);
    await rm(dir, { recursive: true, force: true });
  });

  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${emu.url}/openai/v1/${path}`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, await res.clone().text());
    return res;
  };
  const chat = async (body: Record<string, unknown>) => (await (await post('chat/completions', { messages: [{ role: 'user', content: 'why is the sky blue' }], ...body })).json()) as Completion;

  it("reports a reasoning deployment's thinking by effort, as the Responses route does, counted in completion_tokens; cached_tokens always", async () => {
    for (const effort of ['low', 'medium', 'high'] as const) {
      const c = await chat({ model: 'o3-mini', reasoning_effort: effort });
      const answer = await post('responses', { model: 'o3-mini', input: 'why is the sky blue', reasoning: { effort } });
      const r = (await answer.json()) as { usage: { output_tokens_details: { reasoning_tokens: number } } };
      const thinking = c.usage.completion_tokens_details.reasoning_tokens;
      assert.equal(thinking, r.usage.output_tokens_details.reasoning_tokens, `${effort}: the same spend on both APIs`);
      assert.equal(thinking, { low: 64, medium: 192, high: 640 }[effort]);
      assert.ok(c.usage.completion_tokens > thinking, 'the answer and the thinking, both billed as completion');
      assert.equal(c.usage.total_tokens, c.usage.prompt_tokens + c.usage.completion_tokens);
      assert.deepEqual(c.usage.prompt_tokens_details, { cached_tokens: 0 });
    }
    assert.equal((await chat({ model: 'o3-mini' })).usage.completion_tokens_details.reasoning_tokens, 192, 'medium when no effort is given');
    const plain = await chat({ model: 'chat' });
    assert.deepEqual([plain.usage.completion_tokens_details, plain.usage.prompt_tokens_details], [{ reasoning_tokens: 0 }, { cached_tokens: 0 }], 'a chat model thinks for nothing');
  });

  it("streamed with include_usage: the usage chunk carries the same reasoning and cached counts as the plain answer", async () => {
    const plain = await chat({ model: 'o3-mini', reasoning_effort: 'low' });
    const messages = [{ role: 'user', content: 'why is the sky blue' }];
    const text = await (await post('chat/completions', { model: 'o3-mini', reasoning_effort: 'low', messages, stream: true, stream_options: { include_usage: true } })).text();
    const frames = text.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)) as { usage: Usage | null });
    const usage = frames.at(-1)!.usage!;
    assert.deepEqual(usage, plain.usage);
    assert.deepEqual([usage.completion_tokens_details.reasoning_tokens, usage.prompt_tokens_details.cached_tokens], [64, 0]);
  });

  it('max_completion_tokens holds the thinking too: a limit under its spend leaves no answer, ended by length', async () => {
    const c = await chat({ model: 'o3-mini', max_completion_tokens: 100 });
    assert.deepEqual([c.choices[0].message.content, c.choices[0].finish_reason], ['', 'length']);
    assert.deepEqual([c.usage.completion_tokens, c.usage.completion_tokens_details.reasoning_tokens], [100, 100]);
    const roomy = await chat({ model: 'o3-mini', max_completion_tokens: 200 });
    assert.deepEqual([roomy.choices[0].finish_reason, roomy.usage.completion_tokens, roomy.usage.completion_tokens_details.reasoning_tokens], ['length', 200, 192]);
    assert.ok(roomy.choices[0].message.content!.length > 0, 'the 8 tokens left are the answer');
  });

  it("the panel's footer, VS Code's chat report, the usage record, the usage view and its CSV each show the reasoning apart", async () => {
    const reports: RequestReport[] = [];
    const turn = await panelTurn(client, 'o3-mini', 'why is the sky blue', { onReport: (r) => reports.push(r) });
    assert.equal(turn.api, 'chat');
    const footer = formatUsage({ id: 't', role: 'assistant', content: turn.content, createdAt: 1, model: turn.model, usage: turn.usage });
    assert.match(footer, /\(192 reasoning\)$/);
    const messages = [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'hi' }] }];
    await runLmChat({ client, deployment: 'o3-mini', messages, signal: new AbortController().signal, onText: () => {}, onToolCall: () => {}, onReport: (r) => reports.push(r) });
    assert.deepEqual(reports.map((r) => [r.source, r.api, r.tokens?.reasoning]), [['panel', 'chat', 192], ['vscode-chat', 'chat', 192]]);
    const records = reports.map((r) => usageRecordOf(r, 'Local emulator'));
    assert.deepEqual(records.map((r) => r.tokens.reasoning), [192, 192]);
    const summary = await aggregateUsage(records, { now: Date.now(), zone: () => 0 });
    const today = summary.deployments.find((d) => d.deployment === 'o3-mini')!.windows.today;
    assert.equal(today.reasoningTokens, 384);
    const [header, row] = usageTableCsv(summary).split('\r\n');
    assert.equal(row.split(',')[header.split(',').indexOf('reasoning tokens')], '384');
  });

  it("Compare's column on Chat Completions counts the reasoning tokens, shows them and prices them as output", async () => {
    const round = await runCompareRound(
      [
        { id: 'emu/o3-mini', client, connection: 'emu', deployment: 'o3-mini', model: 'o3-mini' },
        { id: 'emu/chat', client, connection: 'emu', deployment: 'chat', model: 'gpt-4o' },
      ],
      { messages: [{ role: 'user', parts: [{ type: 'text', text: 'why is the sky blue' }] }], sampling: { reasoningEffort: 'high' } },
      { signal: new AbortController().signal, apiMemory: new ApiMemory(), onReport: () => {}, onText: () => {}, onColumn: () => {} },
    );
    const [column, plain] = round.columns;
    assert.deepEqual([column.outcome, plain.outcome, plain.tokens!.reasoning], ['ok', 'ok', 0]);
    assert.equal(column.tokens!.reasoning, 640);
    assert.ok(column.tokens!.completion > 640);
    assert.match(tokensText(column), /, 640 reasoning$/);
    assert.equal(column.costUsd, costOf(DEFAULT_PRICES.get('o3-mini')!, column.tokens!));
  });

  it("a batch of chat lines: each answer, the batch's usage and its usage records count the reasoning tokens", async () => {
    const body = (id: string) => ({ model: 'o3-mini-batch', messages: [{ role: 'user', content: id }], reasoning_effort: 'low' });
    const line = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: body(id) });
    await writeFile(join(dir, 'in.jsonl'), `${line('a')}\n${line('b')}\n`);
    const input = await client.jobs.files.upload(join(dir, 'in.jsonl'), { purpose: 'batch' });
    const created = await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions' });
    const batch = await eventually(async () => {
      const b = await client.jobs.batches.retrieve(created.id);
      return b.status === 'completed' ? b : undefined;
    }, undefined, 'the batch to complete');
    assert.equal((batch as { usage?: { output_tokens_details: { reasoning_tokens: number } } }).usage?.output_tokens_details.reasoning_tokens, 128);
    const files = await downloadResults(client.jobs.files, batch, join(dir, 'storage'));
    const records = await batchUsageRecords(files, batch, { connectionId: 'emu', connectionLabel: 'Local emulator' });
    assert.equal(records.reduce((n, r) => n + r.tokens.reasoning, 0), 128);
  });
});
