/**
 * A usage record of a real request to the emulator: the tokens and rate-limit headers the service
 * answered with are in it; the prompt, the reply and the key are not, even when the caller hands
 * over everything it had.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { rateLimitOf } from '../../src/chat/engine/report';
import { createUsageRecord, serializeUsageRecord, tokensFromServiceUsage, type UsageInput } from '../../src/usage/record';
import { UsageLog } from '../../src/usage/usageLog';

describe('usage record of a real request', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());

  it('holds the answer\'s tokens and rate-limit headers, and none of the request\'s or the reply\'s text', async () => {
    const prompt = 'Tell me about the zebra-quokka-7731 protocol';
    const body = { model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'system', content: 'You are SYSTEM-PROMPT-5150.' }, { role: 'user', content: prompt }] };
    const started = Date.now();
    const res = await request(`${emu.url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.statusCode, 200);
    let reply = '';
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    let firstTokenMs: number | undefined;
    for (const frame of (await res.body.text()).split('\n\n')) {
      const data = frame.replace(/^data: /, '');
      if (!data || data === '[DONE]') continue;
      const chunk = JSON.parse(data);
      const delta = chunk.choices?.[0]?.delta?.content;
      if (delta) (reply += delta), (firstTokenMs ??= Date.now() - started);
      if (chunk.usage) usage = chunk.usage;
    }
    assert.ok(reply.length > 20 && usage, 'the emulator answered');
    const headroom = rateLimitOf(res.headers);
    assert.deepEqual(headroom, {
      remainingRequests: Number(res.headers['x-ratelimit-remaining-requests']),
      remainingTokens: Number(res.headers['x-ratelimit-remaining-tokens']),
      limitRequests: 300,
      limitTokens: 50_000,
    });
    // Everything the caller had, handed over at once: only the record's own fields are kept.
    const input = {
      ...body,
      reply,
      apiKey: emu.apiKey,
      headers: res.headers,
      at: started,
      connectionId: 'emulator',
      connectionLabel: 'Local emulator',
      deployment: 'gpt-4o',
      model: 'gpt-4o',
      modelVersion: '2024-11-20',
      api: 'chat',
      route: 'v1',
      source: 'panel',
      tokens: tokensFromServiceUsage(usage),
      firstTokenMs,
      totalMs: Date.now() - started,
      outcome: { kind: 'ok' },
      rateLimit: headroom,
    } as unknown as UsageInput;
    const path = join(mkdtempSync(join(tmpdir(), 'usage-real-')), 'usage.jsonl');
    const log = await UsageLog.open(path);
    log.append(createUsageRecord(input));
    await log.flush();
    const stored = readFileSync(path, 'utf8');
    assert.equal(stored, `${serializeUsageRecord(createUsageRecord(input))}\n`);
    // The reply echoes the prompt and names the deployment: each of its lines is looked for whole.
    const replyLines = reply.split('\n').filter((l) => l.length > 20);
    assert.ok(replyLines.length >= 2);
    const words = [prompt, 'zebra-quokka-7731', 'protocol', 'SYSTEM-PROMPT-5150', emu.apiKey, reply, ...replyLines];
    for (const w of words) assert.ok(!stored.includes(w), `the stored line holds "${w}"`);
    const [r] = await log.records();
    assert.deepEqual([r.tokens.prompt, r.tokens.completion, r.rateLimit?.limitRequests], [usage.prompt_tokens, usage.completion_tokens, 300]);
    assert.ok(r.firstTokenMs !== undefined && r.totalMs !== undefined && r.firstTokenMs <= r.totalMs);
  });
});
