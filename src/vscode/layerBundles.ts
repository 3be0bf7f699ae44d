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
export const loadTrace = onFirstUse<TraceBundle>('trace.js');
