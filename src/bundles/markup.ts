/**
 * The pages' fixed markup, bundled apart as `dist/markup.js` (see esbuild.mjs) and required the
 * first time a panel opens, through `loadMarkup()` in src/vscode/bundles.ts: activation draws no page.
 */
export { chatBodyHtml } from '../webview/chat/markup';
export { compareBodyHtml } from '../webview/compare/markup';
export { fineTuningBodyHtml } from '../webview/fineTuning/markup';
export { inspectorBodyHtml } from '../webview/inspector/markup';
export { usageBodyHtml } from '../webview/usage/markup';
