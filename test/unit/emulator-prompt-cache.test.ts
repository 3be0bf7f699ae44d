/**
 * The emulator's prompt cache rule, as the service documents it: a prefix of at least 1,024
 * identical tokens of an earlier prompt, to the same deployment and cache key, within the cache
 * time, is cached: 1,024 tokens, then steps of 128.
 */
import assert from 'node:assert/strict';
import { CACHE_MIN_TOKENS, PromptCache } from '../../src/emulator/promptCache';

const seq = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('emulator prompt cache', () => {
  let now = 0;
  const cache = () => new PromptCache(300_000, () => now);

  it('the first prompt is never cached; the same prompt again is, in steps of 128 above 1,024, capped at what is billed', () => {
    const c = cache();
    assert.equal(c.use('d', seq(1500), 1503), 0);
    assert.equal(c.use('d', seq(1500), 1503), 1024 + 3 * 128);
    assert.equal(c.use('d', seq(1500), 1100), 1100);
  });

  it('a shared prefix shorter than 1,024 tokens is not cached; exactly 1,024 is', () => {
    const c = cache();
    c.use('d', seq(2000), 2000);
    assert.equal(c.use('d', [...seq(CACHE_MIN_TOKENS - 1), -1, ...seq(500)], 2000), 0);
    assert.equal(c.use('d', [...seq(CACHE_MIN_TOKENS), -1, ...seq(500)], 2000), 1024);
  });

  it('another deployment or cache key does not share the cache, and an entry unused for longer than the cache time is gone', () => {
    const c = cache();
    c.use('d\nkey-a', seq(1200), 1200);
    assert.equal(c.use('d\nkey-b', seq(1200), 1200), 0);
    assert.equal(c.use('e\nkey-a', seq(1200), 1200), 0);
    now += 200_000;
    assert.equal(c.use('d\nkey-a', seq(1200), 1200), 1152, 'a hit within the cache time keeps the entry warm');
    now += 200_000;
    assert.equal(c.use('d\nkey-a', seq(1200), 1200), 1152);
    now += 300_001;
    assert.equal(c.use('d\nkey-a', seq(1200), 1200), 0);
  });
});
