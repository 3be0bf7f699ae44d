// The content filter's verdicts in words, from each shape the service sends them in: a refused
// request's innererror, the prompt's annotations and a choice's, with the prompt shields
// (detected, no severity), protected material (with its citation) and blocklists.
import assert from 'node:assert/strict';
import { categoryName, filterAdvice, promptVerdicts, trippedText, verdictsOf } from '../../src/service/contentFilter';
import { parseErrorBody } from '../../src/service/errors';

const SAFE = { filtered: false, severity: 'safe' };

describe('content filter verdicts', () => {
  it('reads a refused request as the service sends it: each category, its severity, the prompt side', () => {
    const body = JSON.stringify({
      error: {
        code: 'content_filter',
        status: 400,
        innererror: {
          code: 'ResponsibleAIPolicyViolation',
          content_filter_result: { hate: SAFE, jailbreak: { filtered: true, detected: true }, self_harm: SAFE, sexual: SAFE, violence: { filtered: true, severity: 'medium' } },
        },
      },
    });
    const { filterVerdicts, filteredCategories } = parseErrorBody(body);
    assert.deepEqual(filteredCategories, ['jailbreak', 'violence']);
    assert.deepEqual(filterVerdicts?.find((v) => v.category === 'jailbreak'), { category: 'jailbreak', filtered: true, detected: true, side: 'prompt' });
    assert.equal(trippedText(filterVerdicts!), 'a jailbreak attempt, violence (medium)');
    // The Responses API's spelling of the same object.
    const responses = { error: { code: 'content_filter', inner_error: { content_filter_results: { sexual: { filtered: true, severity: 'high' } } } } };
    assert.deepEqual(parseErrorBody(JSON.stringify(responses)).filterVerdicts, [{ category: 'sexual', severity: 'high', filtered: true, side: 'prompt' }]);
  });

  it("reads the prompt's annotations and a reply's, protected material and blocklists included", () => {
    const annotations = { hate: SAFE, indirect_attack: { filtered: false, detected: false }, custom_blocklists: { filtered: false, details: [] } };
    const prompt = promptVerdicts([{ prompt_index: 0, content_filter_results: annotations }]);
    assert.deepEqual(prompt.map((v) => [v.category, v.filtered, v.side]), [['hate', false, 'prompt'], ['indirect_attack', false, 'prompt'], ['custom_blocklists', false, 'prompt']]);
    const reply = verdictsOf(
      {
        protected_material_code: { filtered: true, detected: true, citation: { URL: 'https://github.com/x/y', license: 'MIT' } },
        protected_material_text: { filtered: false, detected: false },
        profanity: { filtered: false, detected: false },
      },
      'reply',
    );
    assert.equal(trippedText(reply), 'protected code (from public repositories)');
    const advice = /^The reply would repeat protected material: ask for a summary or an answer in its own words\. The thresholds are the deployment's content filter \(Resource/;
    assert.match(filterAdvice(reply, 'reply'), advice);
  });

  it('says what to change for each kind of refusal, on the side that tripped', () => {
    const one = (category: string, side: 'prompt' | 'reply') => filterAdvice([{ category, filtered: true, side }], side);
    assert.match(one('jailbreak', 'prompt'), /shorten or rephrase the system prompt/);
    assert.match(one('indirect_attack', 'prompt'), /A document or tool result in the conversation carries instructions/);
    assert.match(one('hate', 'prompt'), /^Rephrase the message and send it again\./);
    assert.match(one('violence', 'reply'), /^Ask in another way: the reply crossed the deployment's thresholds\./);
    assert.match(filterAdvice([], 'prompt'), /^Rephrase the message/, 'a refusal that names nothing still says what to do');
  });

  it('keeps what came from outside as plain names: no markup, bounded, unknown categories shown as named', () => {
    const odd = verdictsOf({ '<img src=x onerror=alert(1)>': { filtered: true, severity: '<b>high</b>' }, [`x${'y'.repeat(500)}`]: { filtered: true } }, 'prompt');
    assert.deepEqual(odd.map((v) => v.category), ['imgsrcxonerroralert1', `x${'y'.repeat(39)}`]);
    assert.equal(odd[0].severity, 'bhighb');
    assert.equal(categoryName('brand_new_category'), 'brand_new_category');
    assert.deepEqual(verdictsOf({ hate: 'yes', violence: { severity: 'high' }, list: [1] }, 'reply'), [], 'entries without a filtered flag say nothing');
    assert.deepEqual(verdictsOf([{ hate: SAFE }], 'reply'), []);
    assert.deepEqual(verdictsOf(null, 'reply'), []);
  });
});
