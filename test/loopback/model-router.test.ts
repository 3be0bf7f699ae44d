/**
 * A model-router deployment on the emulator, through the runner as the panel runs it: the
 * answer's model is the one the router chose (by the emulator's documented rule), and the usage
 * record and its estimated cost follow the model that answered, not the deployment's.
 */
import assert from 'node:assert/strict';
import type { RequestReport } from '../../src/chat/engine/report';
import { ROUTER_LONG_MODEL, ROUTER_SHORT_MODEL } from '../../src/emulator/modelRouter';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { usageRecordOf } from '../../src/chat/engine/usageRecord';
import { DEFAULT_PRICES, costOf, priceFor } from '../../src/usage/prices';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';
import { panelTurn } from '../support/panelRun';

describe('model router: the model that answered', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({ config: { deployments: [deployment('router', 'model-router', { version: '2025-05-19' })] } })));
  after(() => closeAll(client, emu));

  async function ask(text: string, api?: 'chat' | 'responses') {
    const reports: RequestReport[] = [];
    const result = await panelTurn(client, 'router', text, { model: 'model-router', api, onReport: (r) => reports.push(r) });
    return { result, report: reports.at(-1)! };
  }

  it('a short prompt is answered by gpt-4.1-nano: the reply, the report and the usage record name it, and its price applies', async () => {
    const { result, report } = await ask('hello router');
    assert.equal(result.model, ROUTER_SHORT_MODEL);
    assert.equal(report.model, ROUTER_SHORT_MODEL);
    const record = usageRecordOf(report, 'Emulator');
    assert.deepEqual([record.deployment, record.model], ['router', ROUTER_SHORT_MODEL]);
    assert.equal(priceFor(DEFAULT_PRICES, record.model), DEFAULT_PRICES.get('gpt-4.1-nano'));
    assert.equal(priceFor(DEFAULT_PRICES, 'model-router'), undefined, 'the deployment\'s own model has no price: only the answering model can be priced');
    assert.ok(costOf(priceFor(DEFAULT_PRICES, record.model)!, record.tokens) > 0);
  });

  for (const api of ['chat', 'responses'] as const) {
    it(`a prompt of 1,000 tokens or more is answered by gpt-4.1-mini (${api})`, async () => {
      const { result, report } = await ask(Array.from({ length: 1200 }, (_, i) => `word${i}`).join(' '), api);
      assert.equal(result.api, api);
      assert.deepEqual([result.model, report.model], [ROUTER_LONG_MODEL, ROUTER_LONG_MODEL]);
    });
  }
});
