/**
 * The emulator's content filter triggers, read through the chat runner as the panel runs it: a
 * blocked prompt's message names the category and what to do, on both APIs; a reply the filter
 * ends names the reply's category; an annotated reply keeps its annotation on the result.
 * Protected material is a reply verdict: the reply ends (200), and a code match names its source.
 */
import assert from 'node:assert/strict';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';
import { materialNotes } from '../../src/service/contentFilter';
import { ReplyFilteredError, runLmChat } from '../support/lmRun';
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

  // Protected material is found in the reply, never the prompt: the reply ends, and its note names the source it matched.
  const CITED = 'The reply tripped protected material (code): it matches published code at https://github.com/contoso/fibonacci-samples/blob/main/fib.py (license: MIT).';

  for (const [name, deploymentName] of [['Chat Completions', 'chat'], ['Responses', 'codex']] as const) {
    it(`${name}: "/filter protected_material_code": the reply (not the prompt) tripped it; the note names the cited source and license as text`, async () => {
      const result = await run('/filter protected_material_code', deploymentName);
      assert.equal(result.api, deploymentName === 'chat' ? 'chat' : 'responses');
      assert.equal(result.finishReason, 'content_filter');
      assert.ok(result.content.length > 0, 'what arrived before the filter is kept');
      assert.ok(result.notes?.some((n) => n.includes('protected material (code) in the reply') && n.includes(CITED)), String(result.notes));
      assert.deepEqual(result.filterVerdicts?.find((v) => v.filtered)?.citation, { url: 'https://github.com/contoso/fibonacci-samples/blob/main/fib.py', license: 'MIT' });
    });
  }

  it('"/filter protected_material_text" in VS Code\'s chat: the reply stops part way and the error says the reply tripped protected material (text)', async () => {
    const messages = [{ role: 'user' as const, parts: [{ type: 'text' as const, text: '/filter protected_material_text' }] }];
    const done = runLmChat({ client, deployment: 'chat', messages, signal: new AbortController().signal, onText: () => {}, onToolCall: () => {} });
    await assert.rejects(done, (e: Error) => {
      assert.ok(e instanceof ReplyFilteredError);
      assert.match(e.message, /part way: protected material \(text\) in the reply\. The reply tripped protected material \(text\): it matches known published text\. Ask for an original answer/);
      return true;
    });
  });

  it('"/annotate protected_material_code": the reply is whole; its annotation (not blocked) carries the citation, said in words', async () => {
    const result = await run('/annotate protected_material_code');
    assert.equal(result.finishReason, 'stop');
    assert.match(result.content, /def fib/);
    const verdicts = result.filterVerdicts ?? [];
    assert.deepEqual(verdicts.map((v) => `${v.category}/${v.where}/${v.filtered}`), ['protected_material_code/reply/false']);
    assert.deepEqual(materialNotes(verdicts), [CITED]);
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
