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
import { aggregateUsage } from '../../src/usage/aggregate';
import { usageTableCsv } from '../../src/usage/csv';
import { DEFAULT_PRICES, costOf, priceFor } from '../../src/usage/prices';
import { isUsageSummary } from '../../src/webview/usage/protocol';
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

  it("the usage view splits the router's row by the model that answered, each priced at its rate, and so does the CSV", async () => {
    const long = Array.from({ length: 1200 }, (_, i) => `word${i}`).join(' ');
    const reports = [(await ask('one')).report, (await ask('two')).report, (await ask(long)).report];
    const records = reports.map((r) => usageRecordOf(r, 'Emulator'));
    const summary = await aggregateUsage(records, { now: Date.now() + 1000 });
    const [router] = summary.deployments;
    assert.equal(router.windows.today.requests, 3);
    const split = router.answeredBy!.map((a) => [a.model, a.windows.today.requests, a.windows.today.promptTokens]);
    const tokens = (i: number[]) => i.reduce((n, k) => n + records[k].tokens.prompt, 0);
    assert.deepEqual(split.sort(), [[ROUTER_LONG_MODEL, 1, tokens([2])], [ROUTER_SHORT_MODEL, 2, tokens([0, 1])]].sort());
    const short = router.answeredBy!.find((a) => a.model === ROUTER_SHORT_MODEL)!;
    const expected = costOf(DEFAULT_PRICES.get('gpt-4.1-nano')!, { prompt: tokens([0, 1]), cached: 0, completion: records[0].tokens.completion + records[1].tokens.completion });
    assert.ok(Math.abs(short.windows.today.cost! - expected) < 1e-12, `${short.windows.today.cost} = ${expected}`);
    assert.ok(isUsageSummary(summary), 'the page takes the split');
    assert.ok(!isUsageSummary({ ...summary, deployments: [{ ...router, answeredBy: [{ model: 5, windows: short.windows }] }] }));
    const csv = usageTableCsv(summary).split('\r\n');
    assert.ok(csv[0].endsWith(',answered by'), csv[0]);
    const rows = csv.filter((l) => l.startsWith('today,Emulator,router,'));
    assert.equal(rows.length, 3, 'the deployment, then a row per answering model');
    assert.ok(rows[0].endsWith(','), 'the deployment row answers for all');
    assert.deepEqual(rows.slice(1).map((r) => r.split(',').at(-1)).sort(), [ROUTER_LONG_MODEL, ROUTER_SHORT_MODEL].sort());
  });

  it('a deployment answered by one model, dated or not, is not split', async () => {
    const { report } = await ask('alone');
    const records = [usageRecordOf(report, 'Emulator'), { ...usageRecordOf(report, 'Emulator'), model: 'gpt-4.1-nano' }, { ...usageRecordOf(report, 'Emulator'), model: undefined }];
    const [d] = (await aggregateUsage(records, { now: Date.now() + 1000 })).deployments;
    assert.equal(d.answeredBy, undefined);
  });
});
