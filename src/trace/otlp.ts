/**
 * Sends traces to the user's collector over OTLP/HTTP (JSON) with OpenTelemetry's own exporter.
 * Bundled apart (src/bundles/otlp.ts → dist/otlp.js) and loaded only when the user has set
 * `aoaiWorkbench.telemetry.otlpEndpoint`: with the setting empty nothing here is loaded or sent.
 * The workbench's spans are already finished when a trace ends, so they are handed to the exporter
 * as finished spans (ReadableSpan) instead of being recorded a second time through a tracer.
 */
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Trace, TraceSpan } from './span';

const KINDS = { client: SpanKind.CLIENT, internal: SpanKind.INTERNAL, server: SpanKind.SERVER } as const;
const SCOPE = { name: 'aoai-workbench' };

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** The traces URL: an endpoint given as the collector's base gets OTLP's `/v1/traces` path. */
export function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint.trim());
  if (!url.pathname.endsWith('/v1/traces')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

function readable(trace: Trace, span: TraceSpan, resource: Resource): ReadableSpan {
  const context = { traceId: trace.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  const ms = span.end - span.start;
  return {
    name: span.name,
    kind: KINDS[span.kind],
    spanContext: () => context,
    parentSpanContext: span.parentSpanId ? { traceId: trace.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED } : undefined,
    startTime: hr(span.start),
    endTime: hr(span.end),
    duration: hr(ms),
    status: span.error !== undefined ? { code: SpanStatusCode.ERROR, message: span.error } : { code: SpanStatusCode.UNSET },
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

export class OtlpTraceSender {
  private readonly exporter: OTLPTraceExporter;
  private readonly resource: Resource;

  constructor(
    readonly endpoint: string,
    version: string,
  ) {
    this.exporter = new OTLPTraceExporter({ url: tracesUrl(endpoint), timeoutMillis: 10_000 });
    this.resource = resourceFromAttributes({ 'service.name': 'aoai-workbench', 'service.version': version });
  }

  /** Resolves once the collector accepted the spans; rejects with the exporter's reason. */
  send(traces: readonly Trace[]): Promise<void> {
    const spans = traces.flatMap((t) => t.spans.map((s) => readable(t, s, this.resource)));
    return new Promise((resolve, reject) =>
      this.exporter.export(spans, (r) => (r.code === 0 ? resolve() : reject(r.error ?? new Error('The collector refused the spans.')))),
    );
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }
}
