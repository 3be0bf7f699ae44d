/**
 * The same long prompt twice against the emulator, through the runner as the panel runs it: the
 * second request's report (what the usage log records) has the cached tokens, and the estimated
 * cost prices them at the model's cached rate, so the saving shows.
 */
import assert from 'node:assert/strict';
import type { RequestReport } from '../../src/chat/engine/report';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { DEFAULT_PRICES, costOf, priceFor } from '../../src/usage/prices';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';
import { panelTurn } from '../support/panelRun';

describe('prompt caching: the same long prompt twice', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({ config: { deployments: [deployment('chat', 'gpt-4o'), deployment('codex', 'gpt-5-codex')] } })));
  after(() => closeAll(client, emu));

  // About 1,500 tokens: numbers in words tokenize one or two to a word.
  const longPrompt = Array.from({ length: 1500 }, (_, i) => `item${i}`).join(' ');

  async function ask(deploymentName: string, text: string): Promise<RequestReport> {
    const reports: RequestReport[] = [];
    await panelTurn(client, deploymentName, text, { onReport: (r) => reports.push(r) });
    // A Responses-only deployment is first asked on Chat Completions (refused, its own report), then answers.
    const answered = reports.filter((r) => r.outcome === 'ok');
    assert.equal(answered.length, 1);
    return answered[0];
  }

  for (const [api, name] of [['Chat Completions', 'chat'], ['Responses', 'codex']] as const) {
    it(`${api}: the second request reports cached tokens (1,024 and up, in steps of 128) and costs less`, async () => {
      const text = `${api} ${longPrompt}`;
      const first = await ask(name, text);
      const second = await ask(name, text);
      assert.ok(first.tokens!.prompt > 1024, `the prompt is long enough: ${first.tokens!.prompt}`);
      assert.equal(first.tokens!.cached, 0);
      const cached = second.tokens!.cached;
      assert.ok(cached >= 1024 && (cached - 1024) % 128 === 0 && cached <= second.tokens!.prompt, `cached ${cached} of ${second.tokens!.prompt}`);
      const price = priceFor(DEFAULT_PRICES, name === 'chat' ? 'gpt-4o' : 'gpt-5-codex')!;
      assert.ok(costOf(price, second.tokens!) < costOf(price, first.tokens!), 'the cached tokens are priced at the cached rate');
    });
  }

  it('a short prompt repeated is never cached', async () => {
    await ask('chat', 'short and sweet');
    assert.equal((await ask('chat', 'short and sweet')).tokens!.cached, 0);
  });
});
