/**
 * Wire details of the emulator's live routes checked with the official `openai` client: delta events
 * carry `obfuscation`; an api-version without the Responses API is refused; batch and realtime
 * deployments do not answer live chat.
 */
import assert from 'node:assert/strict';
import OpenAI, { AzureOpenAI, BadRequestError } from 'openai';
import { ConfigError, resolveConfig } from '../../src/emulator/config';
import { startEmulator, type Emulator } from '../../src/emulator/server';

describe('emulator: wire details', () => {
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    emu = await startEmulator();
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(() => emu.close());

  it('streamed text and reasoning-summary deltas carry an obfuscation string, unless include_obfuscation is false', async () => {
    const seen: Record<string, Array<{ delta: string; obfuscation?: string }>> = {};
    const stream = await client.responses.create({ model: 'o3-mini', input: 'pad me', reasoning: { effort: 'low', summary: 'auto' }, stream: true });
    for await (const ev of stream) {
      if (ev.type === 'response.output_text.delta' || ev.type === 'response.reasoning_summary_text.delta') (seen[ev.type] ??= []).push(ev as { delta: string; obfuscation?: string });
    }
    for (const type of ['response.output_text.delta', 'response.reasoning_summary_text.delta']) {
      assert.ok(seen[type]?.length, `${type} events arrived`);
      for (const d of seen[type]) {
        assert.match(d.obfuscation ?? '', /^[A-Za-z0-9]{1,16}$/);
        assert.equal((d.delta.length + d.obfuscation!.length) % 16, 0, 'padded to a multiple of 16');
      }
    }
    const plain = await client.responses.create({ model: 'gpt-4o', input: 'no padding', stream: true, stream_options: { include_obfuscation: false } });
    let deltas = 0;
    for await (const ev of plain) {
      if (ev.type === 'response.output_text.delta') {
        deltas++;
        assert.equal('obfuscation' in ev, false);
      }
    }
    assert.ok(deltas > 0);
  });

  it('POST /openai/responses with api-version 2024-10-21 is refused as the service refuses it; a version that has it works', async () => {
    const old = await fetch(`${emu.url}/openai/responses?api-version=2024-10-21`, {
      method: 'POST',
      headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', input: 'hi' }),
    });
    assert.equal(old.status, 400);
    assert.deepEqual(await old.json(), { error: { code: 'BadRequest', message: 'Azure OpenAI Responses API is enabled only for api-version 2025-03-01-preview and later' } });
    const none = await fetch(`${emu.url}/openai/responses`, {
      method: 'POST',
      headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', input: 'hi' }),
    });
    assert.equal(none.status, 400, 'the deployment-less Azure route needs an api-version');
    const azure = new AzureOpenAI({ endpoint: emu.url, apiKey: emu.apiKey, apiVersion: '2025-04-01-preview', maxRetries: 0 });
    const r = await azure.responses.create({ model: 'gpt-4o', input: 'new enough' });
    assert.match(r.output_text, /You said: new enough/);
    const oldClient = new AzureOpenAI({ endpoint: emu.url, apiKey: emu.apiKey, apiVersion: '2024-10-21', maxRetries: 0 });
    await assert.rejects(oldClient.responses.retrieve(r.id), (e: unknown) => e instanceof BadRequestError && e.code === 'BadRequest');
    assert.equal((await client.responses.retrieve(r.id)).id, r.id, 'the v1 route needs no api-version');
  });

  it('the Global-Batch deployment refuses live calls and the realtime deployment refuses chat, with OperationNotSupported', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content: 'hi' }] }),
      (e: unknown) => e instanceof BadRequestError && e.code === 'OperationNotSupported' && /GlobalBatch deployment: it serves batch jobs only/.test(e.message),
    );
    await assert.rejects(client.responses.create({ model: 'gpt-4o-mini-batch', input: 'hi' }), (e: unknown) => e instanceof BadRequestError && e.code === 'OperationNotSupported');
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-realtime', messages: [{ role: 'user', content: 'hi' }] }),
      (e: unknown) => e instanceof BadRequestError && e.code === 'OperationNotSupported' && /chatCompletion operation does not work with the specified model, gpt-realtime/.test(e.message),
    );
  });
});

describe('emulator: job and call settings', () => {
  it('the defaults have a Global-Batch and a realtime deployment, listed like the others', async () => {
    const emu = await startEmulator();
    try {
      const byName = new Map(emu.config.deployments.map((d) => [d.name, d]));
      assert.equal(byName.get('gpt-4o-mini-batch')?.sku, 'GlobalBatch');
      assert.equal(byName.get('gpt-realtime')?.model, 'gpt-realtime');
      const models = (await (await fetch(`${emu.url}/openai/v1/models`, { headers: { 'api-key': emu.apiKey } })).json()) as { data: Array<{ id: string }> };
      assert.ok(models.data.some((m) => m.id === 'gpt-realtime'));
    } finally {
      await emu.close();
    }
  });

  it('refuses a jobs.stepMs, calls.ringMs or file limit that is not a number in range, naming the setting', () => {
    assert.throws(() => resolveConfig({ jobs: { stepMs: -1 } }), (e: unknown) => e instanceof ConfigError && /"jobs.stepMs" must be a number of at least 0/.test(e.message));
    assert.throws(() => resolveConfig({ calls: { ringMs: 0 } }), (e: unknown) => e instanceof ConfigError && /"calls.ringMs"/.test(e.message));
    assert.throws(() => resolveConfig({ files: { maxBytes: Number.NaN, maxBatchBytes: 1 } }), (e: unknown) => e instanceof ConfigError && /"files.maxBytes"/.test(e.message));
    const partial = resolveConfig({ jobs: { stepMs: 0 }, files: { maxBatchBytes: 10 } as never });
    assert.equal(partial.jobs.stepMs, 0);
    assert.equal(partial.files.maxBytes, 512 * 1024 * 1024, 'an unset limit keeps its default');
  });
});
