/**
 * A trace as plain data: kept on disk as JSON, posted to the timeline page (which imports this
 * file: no imports, nothing of Node), turned into OTLP spans by the exporter. Times are
 * milliseconds since the epoch; ids are the hex lengths OTLP takes (32 for a trace, 16 for a span).
 */
export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

/** OTLP's span kinds that the workbench uses: a request to the service, work of its own, a delivery received. */
export type SpanKind = 'client' | 'internal' | 'server';

export interface TraceSpan {
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  start: number;
  end: number;
  /** An error span says what went wrong in words (`error.type` holds its class). */
  error?: string;
  attributes: Attributes;
}

/** What a trace is of: a chat turn, a Compare run, a batch, a background response. */
export type TraceKind = 'turn' | 'compare' | 'batch' | 'background';

export interface Trace {
  traceId: string;
  kind: TraceKind;
  /** Names only (the deployment, the batch's id): never the prompt. */
  title: string;
  start: number;
  end: number;
  /** The root span first, the others in the order they started. */
  spans: TraceSpan[];
}

