/**
 * prompt_cache_key and prompt_cache_retention as chat parameters (#39 point 1): the panel's
 * settings reach the service on the v1 route (both APIs), the emulator caches by key as the
 * service does, takes the retentions the API descriptions list and refuses any other; the dated
 * api-version route does not send them.
 */
import assert from 'node:assert/strict';
import { createConversation } from '../../src/chat/conversation';
import { ApiMemory } from '../../src/chat/apiMemory';
import { PANEL_RUN } from '../../src/chat/engine/options';
import type { RequestReport } from '../../src/chat/engine/report';
import { runChat } from '../../src/chat/engine/runner';
import { parseParams, type ChatParams } from '../../src/chat/model';
import { panelRequest } from '../../src/chat/panelRequest';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

describe('prompt cache options as chat parameters (emulator)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({ config: { deployments: [deployment('chat', 'gpt-4o'), deployment('codex', 'gpt-5-codex')] } })));
  after(() => closeAll(client, emu));

  const long = (tag: string) => `${tag} ${Array.from({ length: 1500 }, (_, i) => `item${i}`).join(' ')}`;

  /** One panel turn with these settings; the cached tokens of the request that answered. */
  async function cached(name: string, text: string, params: Partial<ChatParams>): Promise<number> {
    const c = createConversation({ connectionId: 'c', connectionLabel: 'Emulator', deployment: name, params });
    c.turns.push({ id: 't1', role: 'user', content: text, createdAt: Date.now() });
    const reports: RequestReport[] = [];
    const request = { ...panelRequest(c, name === 'codex' ? 'gpt-5-codex' : 'gpt-4o'), client, signal: new AbortController().signal, onText: () => {}, apiMemory: new ApiMemory() };
    await runChat({ ...request, onReport: (r) => reports.push(r) }, PANEL_RUN);
    return reports.find((r) => r.outcome === 'ok')!.tokens!.cached;
  }

  for (const name of ['chat', 'codex']) {
    it(`${name}: a prompt repeated under another key is not cached; under the same key it is (24h retention taken)`, async () => {
      const text = long(name);
      assert.equal(await cached(name, text, { promptCacheKey: 'team-a', promptCacheRetention: '24h' }), 0);
      assert.equal(await cached(name, text, { promptCacheKey: 'team-b' }), 0, 'another key: another cache');
      assert.ok((await cached(name, text, { promptCacheKey: 'team-a', promptCacheRetention: 'in_memory' })) >= 1024, 'the same key: cached');
    });
  }

  it('the api-version route leaves them out; the page may set and clear them, nothing else', () => {
    const c = createConversation({ connectionId: 'c', connectionLabel: 'E', deployment: 'chat', params: { route: 'deployment', promptCacheKey: 'k', promptCacheRetention: '24h' } });
    assert.deepEqual(Object.keys(panelRequest(c, 'gpt-4o').sampling).filter((k) => k.startsWith('promptCache')), []);
    c.params.route = 'v1';
    assert.deepEqual([panelRequest(c, 'gpt-4o').sampling.promptCacheKey, panelRequest(c, 'gpt-4o').sampling.promptCacheRetention], ['k', '24h']);
    assert.deepEqual(parseParams({ promptCacheKey: 'k', promptCacheRetention: 'in_memory' }), { promptCacheKey: 'k', promptCacheRetention: 'in_memory' });
    assert.deepEqual(parseParams({ promptCacheKey: null, promptCacheRetention: null }), { promptCacheKey: undefined, promptCacheRetention: undefined });
    for (const bad of [{ promptCacheRetention: '48h' }, { promptCacheKey: 5 }, { promptCacheKey: 'x'.repeat(1025) }]) assert.equal(parseParams(bad), undefined, JSON.stringify(bad));
  });

  it('the emulator refuses a retention or a key of the wrong kind with 400, as the service does', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${emu.url}/openai/v1/${path}`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const [path, body] of [
      ['chat/completions', { model: 'chat', messages: [{ role: 'user', content: 'hi' }], prompt_cache_retention: '48h' }],
      ['chat/completions', { model: 'chat', messages: [{ role: 'user', content: 'hi' }], prompt_cache_key: 7 }],
      ['responses', { model: 'chat', input: 'hi', prompt_cache_retention: 'forever' }],
    ] as const) {
      const res = await post(path, body);
      const error = ((await res.json()) as { error: { param: string; code: string } }).error;
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(error.param, /^prompt_cache_(retention|key)$/);
    }
    assert.equal((await post('responses', { model: 'chat', input: 'hi', prompt_cache_retention: null, prompt_cache_key: null })).status, 200);
  });
});
