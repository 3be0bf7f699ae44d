/**
 * The emulator's content filter triggers, read through the chat runner as the panel runs it: a
 * blocked prompt's message names the category and what to do, on both APIs; a reply the filter
 * ends names the reply's category; an annotated reply keeps its annotation on the result.
 */
import assert from 'node:assert/strict';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';
import { panelTurn } from '../support/panelRun';

describe('content filter verdicts from the emulator, through the runner', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({ config: { deployments: [deployment('chat', 'gpt-4o'), deployment('codex', 'gpt-5-codex')] } })));
  after(() => closeAll(client, emu));

  const run = (text: string, deploymentName = 'chat') => panelTurn(client, deploymentName, text);

  for (const [name, deploymentName] of [['Chat Completions', 'chat'], ['Responses', 'codex']] as const) {
    it(`${name}: "/filter jailbreak" fails with a message naming the jailbreak filter, the prompt, and raiPolicyName`, async () => {
      await assert.rejects(run('/filter jailbreak', deploymentName), (e: Error) => {
        assert.match(e.message, /jailbreak \(prompt attack\) in the prompt/);
        assert.match(e.message, /Shorten or rephrase the instructions/);
        assert.match(e.message, /raiPolicyName/);
        return true;
      });
    });
  }

  it('"/filter protected_material_code" names protected material (code)', async () => {
    await assert.rejects(run('/filter protected_material_code'), /protected material \(code\) in the prompt/);
  });

  it('"/filter-stream": the note on the reply names violence in the reply, at its severity', async () => {
    const result = await run('/filter-stream');
    assert.equal(result.finishReason, 'content_filter');
    assert.ok(result.notes?.some((n) => /violence \(medium severity\) in the reply/.test(n)), String(result.notes));
  });

  it('"/annotate": the reply is whole, and its protected-material annotation is on the result, not blocked', async () => {
    const result = await run('/annotate');
    assert.equal(result.finishReason, 'stop');
    assert.ok(result.content.length > 0);
    assert.deepEqual(result.filterVerdicts?.map((v) => `${v.category}/${v.where}/${v.filtered}`), ['protected_material_text/reply/false']);
  });
});
