import assert from 'node:assert/strict';
import { modelProfile } from '../../src/chat/modelProfile';

describe('model profiles', () => {
  it('matches the longest family prefix, so a mini model gets its own limits', () => {
    assert.equal(modelProfile('gpt-4o-mini').family, 'gpt-4o-mini');
    assert.equal(modelProfile('gpt-4o-mini').known, true);
    assert.equal(modelProfile('gpt-4o-2024-11-20').family, 'gpt-4o');
    assert.equal(modelProfile('gpt-4.1-nano').family, 'gpt-4.1');
    assert.equal(modelProfile('gpt-4-0613').family, 'gpt-4');
    assert.equal(modelProfile('o3-mini').maxOutputTokens, 100_000);
    assert.equal(modelProfile('o1-mini').maxOutputTokens, 65_536);
  });

  it('does not take a longer name for a family it only starts like', () => {
    assert.equal(modelProfile('o30-custom').known, false);
    assert.equal(modelProfile('gpt-4omega').known, false);
  });

  it('marks reasoning models, which refuse temperature and max_tokens', () => {
    for (const m of ['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.1']) assert.equal(modelProfile(m).reasoning, true, m);
    for (const m of ['gpt-4o', 'gpt-4.1-mini', 'gpt-5-chat', 'gpt-35-turbo']) assert.equal(modelProfile(m).reasoning, false, m);
  });

  it('sends models the service serves only through the Responses API there', () => {
    for (const m of ['gpt-5-codex', 'gpt-5-pro', 'codex-mini', 'o3-pro']) {
      const p = modelProfile(m);
      assert.deepEqual(p.apis, ['responses'], m);
      assert.equal(p.preferredApi, 'responses', m);
    }
    assert.equal(modelProfile('gpt-4o').preferredApi, 'chat');
    assert.deepEqual(modelProfile('gpt-4o').apis, ['chat', 'responses']);
  });

  it('knows which models take images', () => {
    assert.equal(modelProfile('gpt-4o').imageInput, true);
    assert.equal(modelProfile('o3-mini').imageInput, false);
    assert.equal(modelProfile('gpt-35-turbo').imageInput, false);
  });

  it('gives unknown models cautious limits, is case-insensitive and ignores surrounding spaces', () => {
    const p = modelProfile('my-finetune');
    assert.equal(p.known, false);
    assert.equal(p.family, 'my-finetune');
    assert.equal(p.imageInput, false);
    assert.equal(p.maxOutputTokens, 4_096);
    assert.equal(modelProfile(' GPT-4o ').family, 'gpt-4o');
    assert.equal(modelProfile(undefined).known, false);
    assert.equal(modelProfile(undefined).family, '');
    assert.equal(p.toolCalling, true, 'tools are offered; the service says if a model refuses them');
    assert.equal(modelProfile('o9-preview').reasoning, true);
    assert.equal(modelProfile('ft-o3-custom').reasoning, false, 'only names that start like a reasoning line');
  });
});
