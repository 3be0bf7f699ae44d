/**
 * The VS Code layer's own bundles, loaded on first use like those of bundles.ts. Apart from it
 * because their code loads the core's bundles through bundles.ts: naming them there would close
 * a circle (the lint counts type imports).
 */
import { onFirstUse } from './bundles';

/** Inline suggestions: their provider, status bar item and engine, loaded once a deployment is chosen. */
export type InlineBundle = typeof import('./inline/bundle');
/** Traces in the editor: their store, the export to the user's collector, the timeline page. */
export type TraceBundle = typeof import('./trace/bundle');

export const loadInline = onFirstUse<InlineBundle>('inline.js');

const requireTrace = onFirstUse<TraceBundle>('trace.js');
let traceBundle: TraceBundle | undefined;
export const loadTrace = (): TraceBundle => (traceBundle ??= requireTrace());
/** The trace bundle if something loaded it: deactivate writes its waiting traces, and loads nothing. */
export const loadedTrace = (): TraceBundle | undefined => traceBundle;
