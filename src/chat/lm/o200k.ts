/**
 * The o200k tokenizer (gpt-4o, gpt-4.1, o-series, gpt-5), bundled on its own as `dist/tokenizer.js`
 * (see esbuild.mjs): its tables are megabytes, loaded the first time a count is asked for.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { TokenCounter } from './tokenCount';

const NONE = new Set<string>();

export function createO200kCounter(): TokenCounter {
  // Special-token text (`<|endoftext|>`) in a message is counted as text, never refused.
  return new TokenCounter((text) => countTokens(text, { disallowedSpecial: NONE }));
}
