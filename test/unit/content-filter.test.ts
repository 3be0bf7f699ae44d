/**
 * The content filter reader over every shape the service sends (Azure's Chat Completions
 * description: prompt_filter_results, a choice's content_filter_results, the 400 error in both
 * spellings; the Responses API's content_filters): category, severity, prompt or reply, advice.
 */
import assert from 'node:assert/strict';
import { annotations, blockedSummary, filterAdvice, materialNotes, readFilterError, readFilterVerdicts } from '../../src/service/contentFilter';
import { ServiceError, parseErrorBody } from '../../src/service/errors';

const SAFE = { filtered: false, severity: 'safe' };
const SAFE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };

describe('content filter verdicts in words', () => {
  it('a 400 with innererror.content_filter_result (the wire form): the prompt tripped jailbreak, and the message says to rephrase the instructions and where the filter is configured', () => {
    const result = { ...SAFE_RESULTS, jailbreak: { filtered: true, detected: true } };
    const body = { error: { code: 'content_filter', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: result } } };
    const verdicts = readFilterError(body);
    assert.deepEqual(verdicts, [{ category: 'jailbreak', key: 'jailbreak', where: 'prompt', filtered: true, severity: undefined }]);
    const err = new ServiceError({ kind: 'http', host: 'example.openai.azure.com', status: 400, ...parseErrorBody(JSON.stringify(body)) });
    assert.match(err.message, /jailbreak \(prompt attack\) in the prompt/);
    assert.match(err.message, /Shorten or rephrase the instructions/);
    assert.match(err.message, /raiPolicyName/);
    assert.deepEqual(err.filteredCategories, ['jailbreak']);
  });

  it("the spec's spelling (inner_error.content_filter_results) reads the same, with each severity category's level", () => {
    const results = { ...SAFE_RESULTS, hate: { filtered: true, severity: 'high' }, violence: { filtered: true, severity: 'medium' } };
    const body = { error: { code: 'content_filter', inner_error: { code: 'ResponsibleAIPolicyViolation', content_filter_results: results } } };
    const verdicts = readFilterError(body);
    assert.deepEqual(verdicts.map((v) => [v.category, v.severity, v.where]), [['hate', 'high', 'prompt'], ['violence', 'medium', 'prompt']]);
    assert.equal(blockedSummary(verdicts), 'Blocked by the content filter: hate (high severity) in the prompt, violence (medium severity) in the prompt.');
    assert.ok(filterAdvice(verdicts).includes('Rephrase the message and send it again.'));
  });

  it('a 200 chat completion: prompt_filter_results and the choice read apart; a safe category says nothing; a detected but not blocked one is an annotation', () => {
    const body = {
      prompt_filter_results: [
        {
          prompt_index: 0,
          content_filter_results: { ...SAFE_RESULTS, jailbreak: { filtered: false, detected: false }, indirect_attack: { filtered: true, detected: true } },
        },
      ],
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          content_filter_results: { ...SAFE_RESULTS, protected_material_code: { filtered: false, detected: true, citation: { URL: 'https://example.com', license: 'MIT' } } },
        },
      ],
    };
    const verdicts = readFilterVerdicts(body);
    assert.deepEqual(verdicts.map((v) => `${v.category}/${v.where}/${v.filtered}`), ['indirect_attack/prompt/true', 'protected_material_code/reply/false']);
    assert.deepEqual(annotations(verdicts).map((v) => v.category), ['protected_material_code']);
    assert.match(filterAdvice(verdicts).join(' '), /attached document or a tool result/);
  });

  it("a reply ended by the filter (finish_reason content_filter): the reply's category and severity, and advice for a reply", () => {
    const verdicts = readFilterVerdicts({ choices: [{ index: 0, finish_reason: 'content_filter', content_filter_results: { ...SAFE_RESULTS, sexual: { filtered: true, severity: 'medium' } } }] });
    assert.equal(blockedSummary(verdicts), 'Blocked by the content filter: sexual content (medium severity) in the reply.');
    assert.ok(filterAdvice(verdicts).includes('Ask again in other words, or ask for a shorter reply.'));
  });

  it("the Responses API's content_filters: source_type prompt or completion, protected material text in the reply", () => {
    const body = {
      object: 'response',
      content_filters: [
        { blocked: false, source_type: 'prompt', content_filter_results: { ...SAFE_RESULTS, jailbreak: { filtered: false, detected: false } } },
        { blocked: true, source_type: 'completion', content_filter_results: { ...SAFE_RESULTS, protected_material_text: { filtered: true, detected: true } } },
      ],
    };
    const verdicts = readFilterVerdicts(body);
    assert.deepEqual(verdicts.map((v) => `${v.category}/${v.where}`), ['protected_material_text/reply']);
    assert.match(filterAdvice(verdicts).join(' '), /original answer/);
  });

  it('protected material (code) with a citation: the reply tripped it, named with its source and license, kept as text however it is spelled', () => {
    const hostile = 'javascript:alert(1)//<a href="https://evil.test">x</a>';
    const code = { filtered: true, detected: true, citation: { URL: hostile, license: 'GPL-3.0' } };
    const verdicts = readFilterVerdicts({ choices: [{ finish_reason: 'content_filter', content_filter_results: { ...SAFE_RESULTS, protected_material_code: code } }] });
    assert.deepEqual(verdicts[0].citation, { url: hostile, license: 'GPL-3.0' });
    assert.deepEqual(materialNotes(verdicts), [`The reply tripped protected material (code): it matches published code at ${hostile} (license: GPL-3.0).`]);
    assert.ok(filterAdvice(verdicts).includes(materialNotes(verdicts)[0]), 'the blocked reply says which source it matched');
    const bare = readFilterVerdicts({ choices: [{ content_filter_results: { protected_material_code: { filtered: false, detected: true, citation: { URL: 7, license: '' } } } }] });
    assert.equal(bare[0].citation, undefined, 'a citation naming nothing is left out');
    assert.deepEqual(materialNotes(bare), ['The reply tripped protected material (code): it matches published code at an unnamed source.']);
  });

  it("an unknown category from the service is kept under its own name, as text; garbage reads as nothing", () => {
    const verdicts = readFilterVerdicts({ choices: [{ content_filter_results: { '<b>new_thing</b>': { filtered: true } } }] });
    assert.equal(verdicts[0].category, 'other');
    assert.equal(blockedSummary(verdicts), 'Blocked by the content filter: <b>new_thing</b> in the reply.');
    for (const junk of [null, 3, 'x', [], { choices: 'no' }, { prompt_filter_results: [null] }]) assert.deepEqual(readFilterVerdicts(junk), []);
    assert.deepEqual(readFilterError({ error: 'nope' }), []);
  });
});

describe('content filter verdicts on a saved turn', () => {
  const turn = (filterVerdicts: unknown) => ({ id: 't', role: 'assistant', content: 'x', createdAt: 1, filterVerdicts });

  it('a turn keeps its verdicts (for the badge) through the page protocol and the saved conversation; a malformed list fails the turn', async () => {
    const { isTurn } = await import('../../src/chat/model');
    assert.ok(isTurn(turn(readFilterVerdicts({ choices: [{ content_filter_results: { protected_material_text: { filtered: false, detected: true } } }] }))));
    assert.ok(isTurn(turn(undefined)));
    assert.ok(isTurn(turn([{ key: 'protected_material_code', category: 'protected_material_code', where: 'reply', filtered: true, citation: { url: 'https://example.test/a', license: 'MIT' } }])));
    assert.ok(!isTurn(turn([{ key: 'protected_material_code', category: 'protected_material_code', where: 'reply', filtered: true, citation: { url: { href: 'x' } } }])), 'a citation is text');
    assert.ok(!isTurn(turn([{ key: 'hate', category: 'hate', where: 'elsewhere', filtered: true }])));
    assert.ok(!isTurn(turn('hate')));
    assert.ok(!isTurn(turn(Array.from({ length: 41 }, () => ({ key: 'hate', category: 'hate', where: 'reply', filtered: false })))));
  });
});
