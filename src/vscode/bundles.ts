/**
 * The bundles activation does not load: each is a file of its own in dist/ (see esbuild.mjs),
 * required the first time a command needs it. Only their types are imported statically, so none
 * of their code reaches dist/extension.js; the host tests check both.
 */
import { join } from 'node:path';

/** undici, the service and Resource Manager clients, the chat engine, the webhook listener, tunnels. */
export type NetworkBundle = typeof import('../bundles/network');
/** @azure/identity: the Azure CLI and DefaultAzureCredential. */
export type IdentityBundle = typeof import('../auth/identity');
/** The o200k tokenizer (its tables are megabytes), for the language model provider's token counts. */
export type TokenizerBundle = typeof import('../bundles/tokenizer');
/** The usage log, its tables, prices and CSV. */
export type UsageBundle = typeof import('../bundles/usage');
/** The local emulator (it loads the tokenizer and undici from their bundles). */
export type EmulatorBundle = typeof import('../emulator/server');
/** OpenTelemetry's OTLP/HTTP exporter, loaded only when the user set an OTLP endpoint. */
export type OtlpBundle = typeof import('../bundles/otlp');
/** The pages' fixed markup, drawn when a panel opens. */
export type MarkupBundle = typeof import('../bundles/markup');

/** A bundle's loader: the first call requires it; `ifLoaded` gives it only when something already did. */
export interface BundleLoader<T> {
  (): T;
  ifLoaded(): T | undefined;
}

/** Requires `dist/<file>` once, on the first call. This code runs from dist/extension.js, so `__dirname` is dist/. */
export function onFirstUse<T>(file: string): BundleLoader<T> {
  let loaded: T | undefined;
  return Object.assign(() => (loaded ??= require(join(__dirname, file)) as T), { ifLoaded: () => loaded });
}

export const loadNetwork = onFirstUse<NetworkBundle>('network.js');
export const loadIdentity = onFirstUse<IdentityBundle>('identity.js');
export const loadEmulator = onFirstUse<EmulatorBundle>('emulator-lib.js');
export const loadTokenizer = onFirstUse<TokenizerBundle>('tokenizer.js');
export const loadUsage = onFirstUse<UsageBundle>('usage-log.js');
export const loadMarkup = onFirstUse<MarkupBundle>('markup.js');
export const loadOtlp = onFirstUse<OtlpBundle>('otlp.js');
