/**
 * The o200k tokenizer (gpt-4o, gpt-4.1, o-series, gpt-5), bundled once as `dist/tokenizer.js` (see
 * esbuild.mjs): VS Code's chat counts tokens with it, and the emulator bundle encodes and decodes
 * its replies with it instead of carrying a second copy. Its tables (megabytes) ship compressed
 * beside it and are read the first time this bundle loads.
 */
export { createO200kCounter } from '../chat/lm/o200k';
export { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
