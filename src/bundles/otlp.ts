/**
 * OpenTelemetry's OTLP/HTTP exporter, bundled apart as `dist/otlp.js` (see esbuild.mjs) and
 * required only when `aoaiWorkbench.telemetry.otlpEndpoint` is set: the extension's own bundle
 * carries none of it, and with the setting empty it is never loaded.
 */
export { OtlpTraceSender, tracesUrl } from '../trace/otlp';
