/**
 * undici, bundled once as `dist/undici.js` (see esbuild.mjs): the network bundle and the emulator
 * bundle both load it from here instead of each carrying most of a megabyte of it.
 */
export * from 'undici';
