/**
 * @vscode/l10n, bundled once as `dist/l10n.js` (see esbuild.mjs) and required from there by every
 * other bundle of the extension host: its translations are a module's state, so the extension, the
 * network stack and the usage log must share one copy for `configureCoreStrings` to reach them all.
 */
export * from '@vscode/l10n';
