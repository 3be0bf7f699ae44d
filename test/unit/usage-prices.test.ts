/**
 * Prices: the shipped table (each figure with its public page and the day it was read), the
 * user's setting over it (a bad entry is reported and left out whole), matching a deployment's
 * model and version, and what a request costs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_CONFIG } from '../../src/emulator/config';
import { costOf, DEFAULT_BATCH_DISCOUNT, DEFAULT_PRICES, priceFor, readPriceSetting, type PriceTable } from '../../src/usage/prices';

const table = (entries: Record<string, { input: number; cachedInput?: number; output: number; batchDiscount?: number }>): PriceTable =>
  new Map(Object.entries(entries));

describe('usage prices', () => {
  it('ships a price for every model of the emulator that chats or runs batches, so `npm start` shows costs without an account', () => {
    // Realtime calls bill audio tokens apart, which a usage record does not count: no price rather than a wrong one.
    // A model router's requests are priced by the model that answered (the answer's `model`), never by the router.
    const text = DEFAULT_CONFIG.deployments.filter((d) => !d.model.includes('realtime') && d.model !== 'model-router');
    assert.ok(text.length >= 6);
    for (const d of text) assert.ok(priceFor(DEFAULT_PRICES, d.model, d.version), d.model);
    assert.equal(priceFor(DEFAULT_PRICES, 'gpt-realtime'), undefined);
  });

  it('says where each shipped price comes from and when it was read, in a comment above it', function () {
    const text = readFileSync('src/usage/prices.ts', 'utf8');
    // The mutation run reads an instrumented copy, whose lines are not the source's.
    if (text.includes('stryMutAct')) this.skip();
    const source = text.split('\n');
    const entries = source.map((l, i) => [l, i] as const).filter(([l]) => /^\s*\['[^']+', \{ input:/.test(l));
    assert.equal(entries.length, DEFAULT_PRICES.size);
    for (const [l, i] of entries) assert.match(source[i - 1], /^\s*\/\/ .*https:\/\/\S+ .*\(read \d{4}-\d{2}-\d{2}/, l);
    assert.match(source.join('\n'), /Source: https:\/\/learn\.microsoft\.com\/\S+batch \(read \d{4}-\d{2}-\d{2}\)/);
  });

  it('matches a model at its version first, then the model, then its undated name, in any case', () => {
    const t = table({ 'gpt-4o': { input: 2.5, output: 10 }, 'gpt-4o@2024-05-13': { input: 5, output: 15 }, 'gpt-4o-mini': { input: 0.15, output: 0.6 } });
    assert.equal(priceFor(t, 'gpt-4o', '2024-05-13')?.input, 5);
    assert.equal(priceFor(t, ' GPT-4o ', ' 2024-05-13 ')?.input, 5);
    assert.equal(priceFor(t, 'gpt-4o', '2024-11-20')?.input, 2.5);
    assert.equal(priceFor(t, 'gpt-4o')?.input, 2.5);
    assert.equal(priceFor(t, 'gpt-4o-2024-08-06')?.input, 2.5);
    assert.equal(priceFor(t, 'gpt-4o-mini', '2024-07-18')?.input, 0.15);
  });

  it('has no price for a model it does not know, even one whose name starts like a known one', () => {
    const t = table({ 'gpt-4o': { input: 2.5, output: 10 } });
    assert.equal(priceFor(t, 'gpt-4o-audio'), undefined);
    assert.equal(priceFor(t, 'my-fine-tune'), undefined);
    assert.equal(priceFor(t, undefined, '1'), undefined);
    assert.equal(priceFor(t, ''), undefined);
    assert.equal(priceFor(t, 'gpt-4o-2024'), undefined);
    assert.equal(priceFor(t, 'gpt-4o-2024-08-06-custom'), undefined);
    const mini = table({ 'gpt-4o-mini': { input: 0.15, output: 0.6 }, 'gpt-4o@preview': { input: 9, output: 9 } });
    assert.equal(priceFor(mini, 'gpt-4o-2024-08-06-mini'), undefined, 'only a dated suffix at the end is dropped');
    assert.equal(priceFor(mini, 'gpt-4o', 'Preview')?.input, 9);
  });

  it('costs cached input at its own price, output at the output price, and batches at the discount', () => {
    const price = { input: 2.5, cachedInput: 1.25, output: 10 };
    // 600 fresh input, 400 cached, 500 output (reasoning is inside the output).
    assert.equal(costOf(price, { prompt: 1000, cached: 400, completion: 500 }), (600 * 2.5 + 400 * 1.25 + 500 * 10) / 1e6);
    assert.equal(
      costOf(price, { prompt: 1000, cached: 400, completion: 500 }, true),
      ((600 * 2.5 + 400 * 1.25 + 500 * 10) / 1e6) * (1 - DEFAULT_BATCH_DISCOUNT),
    );
    assert.equal(costOf({ ...price, batchDiscount: 0.25 }, { prompt: 1e6, cached: 0, completion: 0 }, true), 2.5 * 0.75);
    assert.equal(costOf({ input: 2, output: 8 }, { prompt: 1e6, cached: 1e6, completion: 0 }), 2, 'no cached price: input price');
    assert.equal(costOf(price, { prompt: 100, cached: 500, completion: 0 }), (100 * 1.25) / 1e6, 'cached never above the prompt');
    assert.equal(costOf(price, { prompt: 0, cached: 0, completion: 0 }), 0);
  });

  it('lets the setting change a shipped price and add a model, the rest staying as shipped', () => {
    const { table: t, problems } = readPriceSetting({ 'GPT-4o': { input: 3, output: 12 }, 'my-ft@2': { input: 1, cachedInput: 0.5, output: 2, batchDiscount: 0 } });
    assert.deepEqual(problems, []);
    assert.deepEqual(priceFor(t, 'gpt-4o'), { input: 3, cachedInput: undefined, output: 12, batchDiscount: undefined });
    assert.deepEqual(priceFor(t, 'my-ft', '2'), { input: 1, cachedInput: 0.5, output: 2, batchDiscount: 0 });
    assert.equal(priceFor(t, 'my-ft', '3'), undefined);
    assert.deepEqual(priceFor(t, 'gpt-4o-mini'), DEFAULT_PRICES.get('gpt-4o-mini'));
    assert.equal(t.size, DEFAULT_PRICES.size + 1);
  });

  it('reports each bad entry by name and leaves it out whole; the good ones still apply', () => {
    const { table: t, problems } = readPriceSetting({
      'gpt-4o': { input: 1, output: 'ten' },
      'gpt-4o-mini': { input: 0.2, cachedInput: 0.1, output: 0.8 },
      'o3-mini': { input: 1, outptu: 4 },
      'no-output': { input: 1 },
      negative: { input: -1, output: 1 },
      huge: { input: 1, output: 10_001 },
      discount: { input: 1, output: 1, batchDiscount: 1.5 },
      nan: { input: Number.NaN, output: 1 },
      list: [1, 2],
      text: 'cheap',
      nothing: null,
      'two@at@signs': { input: 1, output: 1 },
      'has space': { input: 1, output: 1 },
    });
    assert.equal(problems.length, 12);
    assert.deepEqual(priceFor(t, 'gpt-4o'), DEFAULT_PRICES.get('gpt-4o'), 'not half-applied: the shipped price stays');
    assert.equal(priceFor(t, 'gpt-4o-mini')?.input, 0.2);
    assert.deepEqual(priceFor(t, 'o3-mini'), DEFAULT_PRICES.get('o3-mini'));
    for (const name of ['no-output', 'negative', 'huge', 'discount', 'nan', 'list', 'text', 'nothing', 'two@at@signs', 'has space']) assert.equal(t.get(name), undefined, name);
    const say = (key: string) => problems.find((p) => p.startsWith(`Price for "${key}"`)) ?? '';
    assert.match(say('gpt-4o'), /"output" must be dollars per million output tokens, not "ten"\. This entry is ignored; the others apply\.$/);
    assert.match(say('o3-mini'), /unknown field "outptu"; the fields are input, cachedInput, output and batchDiscount/);
    assert.match(say('no-output'), /"output" must be dollars per million output tokens, and is missing/);
    assert.match(say('negative'), /"input" must be dollars per million input tokens, not -1/);
    assert.match(say('huge'), /"output" .* not 10001/);
    assert.match(say('discount'), /"batchDiscount" must be the share taken off for batches, from 0 to 1 \(0\.5 = half price\), not 1\.5/);
    assert.match(say('nan'), /"input" .* not null/);
    assert.match(say('list'), /expected an object such as \{ "input": 2\.5, "cachedInput": 1\.25, "output": 10 \}, not \[1,2\]/);
    assert.match(say('text'), /not "cheap"/);
    assert.match(say('nothing'), /not null/);
    assert.match(say('two@at@signs'), /the name must be a model name, or "model@version"/);
    assert.match(say('has space'), /the name must be/);
  });

  it('keeps the shipped table when the setting is not an object at all, and says so once', () => {
    for (const bad of ['gpt-4o=2.5', 42, [{ input: 1, output: 1 }], true]) {
      const { table: t, problems } = readPriceSetting(bad);
      assert.deepEqual([...t], [...DEFAULT_PRICES]);
      assert.equal(problems.length, 1);
      assert.match(problems[0], /^The price setting must be an object of model names to prices, not .+; the shipped prices apply\.$/);
    }
    for (const unset of [undefined, null, {}]) assert.deepEqual(readPriceSetting(unset), { table: new Map(DEFAULT_PRICES), problems: [] });
  });

  it('takes names up to 200 characters and versions up to 64, and prices up to the bounds', () => {
    const name = 'm'.repeat(200);
    const version = 'v'.repeat(64);
    const { table: t, problems } = readPriceSetting({
      [name]: { input: 1, output: 1 },
      [`x@${version}`]: { input: 1, output: 1 },
      [`${name}x`]: { input: 1, output: 1 },
      [`y@${version}v`]: { input: 1, output: 1 },
      edge: { input: 0, cachedInput: 10_000, output: 10_000, batchDiscount: 1 },
      '@nothing': { input: 1, output: 1 },
      'trailing@': { input: 1, output: 1 },
    });
    assert.equal(problems.length, 4);
    assert.ok(t.get(name) && t.get(`x@${version}`) && t.get('edge'));
    assert.deepEqual(t.get('edge'), { input: 0, cachedInput: 10_000, output: 10_000, batchDiscount: 1 });
    assert.ok(problems.every((p) => /the name must be/.test(p)));
    // A long name is cut to 80 characters in the message.
    assert.ok(problems.some((p) => p.startsWith(`Price for "${'m'.repeat(80)}":`)));
  });

  it('quotes at most 40 characters of a bad value or field name in its message', () => {
    const { problems } = readPriceSetting({ x: { input: 'y'.repeat(500), output: 1 }, z: { input: 1, output: Array(100).fill(7) }, w: { ['f'.repeat(100)]: 1 } });
    assert.ok(problems[0].includes(`"${'y'.repeat(40)}"`));
    assert.ok(!problems[0].includes('y'.repeat(41)));
    assert.ok(problems[1].includes(`not ${JSON.stringify(Array(100).fill(7)).slice(0, 40)}.`), problems[1]);
    assert.ok(problems[2].includes(`unknown field "${'f'.repeat(40)}";`), problems[2]);
  });
});
