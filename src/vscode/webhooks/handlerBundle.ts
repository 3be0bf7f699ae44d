/**
 * Check My Handler and Copy as Test (their commands), bundled apart as `dist/handler.js`
 * (esbuild.mjs) and required on first use (layerBundles.ts): activation carries none of it.
 */
export { checkMyHandler } from './handlerCheck';
export { copyFixtureAsTest } from './handlerAsTest';
