/**
 * The compare runner against the emulator and a scripted loopback service over real HTTP: the
 * requests leave together, each model on its API, a column's 429 or content filter stays in that
 * column, Stop stops all, Run again gives medians, and every request is reported as a compare one.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { ApiMemory } from '../../src/chat/apiMemory';
import type { ColumnResult } from '../../src/chat/compare/column';
import { runCompareRound, type CompareOptions, type CompareTarget } from '../../src/chat/compare/compareRun';
import { repeatCompare, summarize } from '../../src/chat/compare/summary';
import type { RequestReport } from '../../src/chat/engine/report';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { DEFAULT_PRICES, costOf } from '../../src/usage/prices';
import { Arrivals } from '../support/arrivals';
import { recordingServer, refuseParameter } from '../support/bodyRecorder';

const prompt = (text: string) => ({
  messages: [{ role: 'system' as const, parts: [{ type: 'text' as const, text: 'Be brief.' }] }, { role: 'user' as const, parts: [{ type: 'text' as const, text }] }],
  sampling: { temperature: 0.2 },
});

describe('compare runner (emulator over loopback)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  const servers: Server[] = [];
  const clients: AzureOpenAIClient[] = [];
  before(async () => {
    emu = await startEmulator({
      config: {
        streamTokenDelayMs: 2,
        rateLimitWindowSeconds: 30,
        deployments: [
          { name: 'chat', model: 'gpt-4o', version: '2024-11-20', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          { name: 'mini', model: 'gpt-4o-mini', version: '2024-07-18', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          { name: 'codex', model: 'gpt-5-codex', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          { name: 'mystery', model: 'house-model', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          { name: 'scarce', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1, tokensPerMinute: 1e7 },
        ],
      },
    });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await client.close();
    await emu.close();
  });

  const target = (deployment: string, model: string, extra: Partial<CompareTarget> = {}): CompareTarget => ({ id: `emu/${deployment}`, client, connection: 'emu', deployment, model, ...extra });

  async function compare(targets: CompareTarget[], text: string, extra: Partial<CompareOptions> = {}) {
    const reports: RequestReport[] = [];
    const texts = new Map<string, string>();
    const ended: string[] = [];
    const options: CompareOptions = {
      signal: new AbortController().signal,
      apiMemory: new ApiMemory(),
      onReport: (r) => reports.push(r),
      onText: (id, t) => texts.set(id, (texts.get(id) ?? '') + t),
      onColumn: (c) => ended.push(c.id),
      ...extra,
    };
    const round = await runCompareRound(targets, prompt(text), options);
    const byId = (id: string) => round.columns.find((c) => c.id === id)!;
    return { round, reports, texts, ended, byId };
  }

  it('starts every column together, each on the API its model needs, streams each reply and measures it', async () => {
    const arrivals = new Arrivals([emu.url]);
    const { round, reports, texts, byId } = await compare([target('chat', 'gpt-4o'), target('codex', 'gpt-5-codex'), target('mini', 'gpt-4o-mini')], '/long 200').finally(() => arrivals.stop());
    assert.deepEqual(round.columns.map((c) => [c.id, c.outcome]), [['emu/chat', 'ok'], ['emu/codex', 'ok'], ['emu/mini', 'ok']]);
    assert.equal(arrivals.moments.length, 3, 'three requests reached the emulator');
    assert.ok(arrivals.spreadMs! < 100, `they arrived within ${arrivals.spreadMs} ms of each other`);
    // Run one after another, each reply (about 200 tokens, 2 ms apart) would start after the previous ended.
    const firsts = round.columns.map((c) => c.firstTokenMs!);
    const shortest = Math.min(...round.columns.map((c) => c.totalMs));
    assert.ok(Math.max(...firsts) < shortest, `every first token (${firsts}) before any reply ended (${shortest} ms)`);
    assert.deepEqual(
      reports.map((r) => [r.deployment, r.api, r.source, r.outcome]).sort(),
      [['chat', 'chat', 'compare', 'ok'], ['codex', 'responses', 'compare', 'ok'], ['mini', 'chat', 'compare', 'ok']],
    );
    for (const c of round.columns) {
      assert.equal(texts.get(c.id), c.content, 'streamed as it came');
      assert.ok(c.content.length > 200 && c.tokens!.completion > 100);
      assert.ok(c.firstTokenMs! > 0 && c.firstTokenMs! < c.totalMs && c.totalMs < 10_000, `${c.firstTokenMs} of ${c.totalMs} ms`);
      assert.ok(c.tokensPerSecond! > 0 && Math.abs(c.tokensPerSecond! - (c.tokens!.completion * 1000) / (c.totalMs - c.firstTokenMs!)) < 1e-6);
    }
    assert.equal(byId('emu/chat').finishReason, 'stop');
    assert.equal(byId('emu/chat').costUsd, costOf(DEFAULT_PRICES.get('gpt-4o')!, byId('emu/chat').tokens!));
    assert.equal(byId('emu/mini').costUsd, costOf(DEFAULT_PRICES.get('gpt-4o-mini')!, byId('emu/mini').tokens!));
    assert.ok(byId('emu/codex').tokens!.reasoning > 0);
    assert.deepEqual(byId('emu/codex').notes, ['Temperature was left out: codex does not take it.']);
  });

  it("a model with no price shows tokens and no cost, never an invented one", async () => {
    const { byId } = await compare([target('chat', 'gpt-4o'), target('mystery', 'house-model')], 'price?');
    assert.ok(byId('emu/mystery').tokens!.completion > 0);
    assert.equal(byId('emu/mystery').costUsd, undefined);
    assert.ok(byId('emu/chat').costUsd! > 0);
  });

  it("one column's 429 stays in that column with its countdown; the others answer", async () => {
    await compare([target('scarce', 'gpt-4o'), target('mini', 'gpt-4o-mini')], 'use up the one request');
    const before = Date.now();
    const { byId, reports } = await compare([target('chat', 'gpt-4o'), target('scarce', 'gpt-4o'), target('mini', 'gpt-4o-mini')], 'again');
    const scarce = byId('emu/scarce');
    assert.equal(scarce.outcome, 'failed');
    assert.equal(scarce.failure!.kind, 'rate_limited');
    assert.equal(scarce.failure!.status, 429);
    assert.ok(scarce.failure!.retryAt! > before + 1000, 'a countdown to show');
    assert.ok(!('firstTokenMs' in scarce), 'nothing arrived, no first token');
    assert.equal(scarce.model, 'gpt-4o');
    assert.match(scarce.failure!.message, /429|rate|limit/i);
    assert.deepEqual([byId('emu/chat').outcome, byId('emu/mini').outcome], ['ok', 'ok']);
    assert.match(byId('emu/chat').content, /You said: again/);
    assert.deepEqual(reports.filter((r) => r.deployment === 'scarce').map((r) => [r.outcome, r.source]), [['rate_limited', 'compare']], 'not waited out, reported');
  });

  it("one column's content filter and another's refused parameter stay in their columns", async () => {
    const filtering = await recordingServer((_b, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        error: { message: 'The response was filtered due to the prompt triggering content management policy.', type: null, param: 'prompt', code: 'content_filter', status: 400 },
      }));
    });
    const refusing = await recordingServer((_b, res) => refuseParameter(res, 'frobnicate'));
    servers.push(filtering.server, refusing.server);
    const other = (url: string) => {
      const c = new AzureOpenAIClient({ endpoint: url, auth: { kind: 'apiKey', apiKey: 'k' } });
      clients.push(c);
      return c;
    };
    const arrivals = new Arrivals([emu.url, filtering.url, refusing.url]);
    const { byId } = await compare(
      [
        target('chat', 'gpt-4o'),
        { id: 'other/filtered', client: other(filtering.url), deployment: 'gpt-4o', model: 'gpt-4o' },
        { id: 'third/refusing', client: other(refusing.url), deployment: 'gpt-4o', model: 'gpt-4o' },
      ],
      'hello all',
    ).finally(() => arrivals.stop());
    assert.equal(byId('emu/chat').outcome, 'ok');
    assert.equal(byId('other/filtered').failure!.kind, 'content_filter');
    assert.equal(byId('third/refusing').failure!.kind, 'refused');
    assert.match(byId('third/refusing').failure!.message, /frobnicate/);
    assert.equal(arrivals.moments.length, 3, 'a request reached each of the three services');
  });

  it('a reply the content filter ends part way keeps what arrived and says why', async () => {
    const { byId } = await compare([target('chat', 'gpt-4o'), target('mini', 'gpt-4o-mini')], '/filter-stream');
    const c = byId('emu/chat');
    assert.deepEqual([c.outcome, c.finishReason], ['ok', 'content_filter']);
    assert.ok(c.content.length > 0);
    assert.ok(c.notes.some((n) => /content filter/.test(n)));
  });

  it('Stop stops every column at once, keeping what arrived', async () => {
    const ac = new AbortController();
    let seen = 0;
    const started = Date.now();
    const { round, reports, ended } = await compare([target('chat', 'gpt-4o'), target('mini', 'gpt-4o-mini'), target('codex', 'gpt-5-codex')], '/long 3000', {
      signal: ac.signal,
      onText: () => {
        if (++seen === 20) ac.abort();
      },
    });
    assert.ok(Date.now() - started < 3000, 'stopped long before 3000 tokens');
    assert.deepEqual(round.columns.map((c) => c.outcome), ['stopped', 'stopped', 'stopped']);
    assert.equal(ended.length, 3);
    assert.ok(round.columns.some((c) => c.content.length > 0));
    assert.deepEqual(reports.map((r) => r.outcome), ['stopped', 'stopped', 'stopped']);
  });

  it('Run again ×3 gives each column its medians and ranges; a column that failed every round has none', async () => {
    const rounds = await repeatCompare([target('chat', 'gpt-4o'), target('scarce', 'gpt-4o')], prompt('/long 50'), 3, { signal: new AbortController().signal, apiMemory: new ApiMemory() });
    assert.equal(rounds.length, 3);
    const [chat, scarce] = summarize(['emu/chat', 'emu/scarce'], rounds);
    assert.deepEqual([chat.answered, chat.rounds, scarce.answered], [3, 3, 0]);
    const totals = rounds.map((r) => r.columns[0].totalMs).sort((a, b) => a - b);
    assert.deepEqual(chat.totalMs, { median: totals[1], min: totals[0], max: totals[2] });
    assert.ok(chat.costUsd!.median > 0 && chat.completionTokens!.median > 30);
    assert.equal(scarce.totalMs, undefined);
  });

  it('Run again stops between rounds when stopped', async () => {
    const ac = new AbortController();
    const rounds = await repeatCompare([target('chat', 'gpt-4o'), target('mini', 'gpt-4o-mini')], prompt('hi'), 5, { signal: ac.signal, onRound: (_r, n) => n === 2 && ac.abort() });
    assert.equal(rounds.length, 2);
  });

  it('a reply cut off part way keeps what arrived in its failed column; a request that cannot connect fails its own', async () => {
    const cutting = await recordingServer((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o', choices: [{ index: 0, delta: { content: 'partial ' }, finish_reason: null }] })}\n\n`);
      setTimeout(() => res.destroy(), 50);
    });
    servers.push(cutting.server);
    const cut = new AzureOpenAIClient({ endpoint: cutting.url, auth: { kind: 'apiKey', apiKey: 'k' } });
    const nowhere = new AzureOpenAIClient({ endpoint: 'http://127.0.0.1:1', auth: { kind: 'apiKey', apiKey: 'k' }, retry: { maxRetries: 0 } });
    clients.push(cut, nowhere);
    const { byId } = await compare([{ id: 'cut', client: cut, deployment: 'gpt-4o', model: 'gpt-4o' }, { id: 'nowhere', client: nowhere, deployment: 'gpt-4o' }, target('chat', 'gpt-4o')], 'hi');
    assert.deepEqual([byId('cut').outcome, byId('cut').content], ['failed', 'partial ']);
    assert.ok(byId('cut').firstTokenMs! >= 0);
    assert.deepEqual([byId('nowhere').outcome, byId('nowhere').failure!.kind], ['failed', 'failed']);
    assert.equal(byId('emu/chat').outcome, 'ok');
  });

  it('a round whose listener threw fails with that error', async () => {
    const thrown = compare([target('chat', 'gpt-4o'), target('mini', 'gpt-4o-mini')], 'hi', { onColumn: () => { throw new Error('a broken page'); } });
    await assert.rejects(thrown, /a broken page/);
  });

  it('refuses fewer than 2 or more than 4 deployments, the same one twice, and a bad round count', async () => {
    const one = [target('chat', 'gpt-4o')];
    const signal = new AbortController().signal;
    await assert.rejects(runCompareRound(one, prompt('x'), { signal }), /2 to 4 deployments; 1 were picked/);
    await assert.rejects(runCompareRound([...one, ...one], prompt('x'), { signal }), /picked twice/);
    const five = ['a', 'b', 'c', 'd', 'e'].map((d) => target(d, 'gpt-4o'));
    await assert.rejects(runCompareRound(five, prompt('x'), { signal }), /5 were picked/);
    const four = await runCompareRound(five.slice(0, 4).map((t) => ({ ...t, deployment: 'chat' })), prompt('x'), { signal });
    assert.equal(four.columns.length, 4, 'four are taken');
    for (const n of [0, 21, 1.5]) await assert.rejects(repeatCompare(five.slice(0, 2), prompt('x'), n, { signal }), /1 to 20 rounds/);
  });
});

export type { ColumnResult };
