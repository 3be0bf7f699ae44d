/**
 * A batch's trace, from its creation (the input checked, uploaded, the batch created) through the
 * statuses it was seen in (by the sidebar's polls or a batch.* delivery) to the one it ended in,
 * with its request counts and result files. Fed by a narrow observer of the job lists: nothing
 * here sends a request. The trace is whole, and handed over, when the batch ends.
 */
import type { Batch } from '../service/jobTypes';
import { BATCH_FINAL } from '../service/jobTypes';
import { TraceBuilder } from './builder';
import { AOAI, GEN_AI, type Attributes, type Trace } from './span';

/** The workbench's batch attributes (the GenAI conventions have none for batches). */
export const BATCH = {
  id: 'aoai_workbench.batch.id',
  status: 'aoai_workbench.batch.status',
  endpoint: 'aoai_workbench.batch.endpoint',
  total: 'aoai_workbench.batch.requests.total',
  completed: 'aoai_workbench.batch.requests.completed',
  failed: 'aoai_workbench.batch.requests.failed',
  outputFile: 'aoai_workbench.batch.output_file_id',
  errorFile: 'aoai_workbench.batch.error_file_id',
} as const;

export type BatchStep = 'check input' | 'upload input' | 'create batch';

export class BatchTrace {
  private readonly builder: TraceBuilder;
  private seen?: { status: string; since: number };
  private ended?: Trace;
  /** Known once the service created the batch (`created`). */
  batchId?: string;

  /** Started when the command starts: the steps before the batch exists belong to it too. */
  constructor(start = Date.now()) {
    this.builder = new TraceBuilder('batch', '', { captureContent: false }, start);
  }

  created(batchId: string): void {
    this.batchId = batchId;
  }

  get traceId(): string {
    return this.builder.traceId;
  }

  /** One step of the creation, as the command timed it. */
  step(name: BatchStep, start: number, end: number, attributes: Attributes = {}, error?: string): void {
    this.builder.step(name, name === 'check input' ? 'internal' : 'client', start, end, attributes, error);
  }

  /** Runs one step of the creation, timed into the trace (a failed step says why, and fails as it did). */
  async timed<T>(name: BatchStep, work: () => PromiseLike<T>): Promise<T> {
    const start = Date.now();
    try {
      const out = await work();
      this.step(name, start, Date.now());
      return out;
    } catch (err) {
      this.step(name, start, Date.now(), {}, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  /**
   * The batch as it was seen at `at`: a status it was not in before starts a span of its own (the
   * one before ends there); a final status ends the trace, which is given back (once).
   */
  saw(batch: Pick<Batch, 'id' | 'status' | 'request_counts' | 'output_file_id' | 'error_file_id' | 'endpoint'>, at = Date.now()): Trace | undefined {
    if (this.ended || !this.batchId || batch.id !== this.batchId || batch.status === this.seen?.status) return undefined;
    this.closeSeen(at);
    this.seen = { status: batch.status, since: at };
    if (!BATCH_FINAL.has(batch.status)) return undefined;
    const counts = batch.request_counts;
    const a: Attributes = { [BATCH.status]: batch.status, [BATCH.total]: counts.total, [BATCH.completed]: counts.completed, [BATCH.failed]: counts.failed };
    if (batch.output_file_id) a[BATCH.outputFile] = batch.output_file_id;
    if (batch.error_file_id) a[BATCH.errorFile] = batch.error_file_id;
    if (batch.endpoint) a[BATCH.endpoint] = batch.endpoint;
    const failed = batch.status === 'failed' || batch.status === 'expired';
    this.builder.step(`batch ${batch.status}`, 'internal', at, at, a, failed ? `the batch ${batch.status}` : undefined);
    const trace = this.finish({}, at);
    const root = trace.spans[0];
    Object.assign(root.attributes, a, { [BATCH.id]: this.batchId, [GEN_AI.operation]: 'batch' });
    if (failed) {
      root.error = `the batch ${batch.status}`;
      root.attributes[GEN_AI.errorType] = batch.status;
    }
    if (counts.failed) root.attributes[AOAI.outcome] = 'some_failed';
    return (this.ended = trace);
  }

  /** Creating it failed: the trace ends with the reason. */
  failed(error: unknown, at = Date.now()): Trace {
    this.ended ??= this.finish({ error }, at);
    return this.ended;
  }

  private finish(end: { error?: unknown }, at: number): Trace {
    const trace = this.builder.finish(end, at);
    trace.title = this.batchId ?? '';
    trace.spans[0].name = this.batchId ? `batch ${this.batchId}` : 'batch';
    return trace;
  }

  private closeSeen(at: number): void {
    if (!this.seen) return;
    this.builder.step(`batch ${this.seen.status}`, 'internal', this.seen.since, at, { [BATCH.status]: this.seen.status });
  }
}
