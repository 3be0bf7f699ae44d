/**
 * What the fine-tuning job's page shows, read from the service: the job, its events (all of them,
 * newest first, up to a bound) and its checkpoints, and the loss per step drawn from them. The
 * service lists events a page at a time, newest first; a refresh reads only the pages that are new.
 */
import type { FineTuningCheckpoint, FineTuningEvent, FineTuningJob, Page } from '../service/jobTypes';

/** The part of the fine-tuning API this reads (the client's `jobs.fineTuning`). */
export interface FineTuningReader {
  retrieve(id: string, signal?: AbortSignal): Promise<FineTuningJob>;
  events(id: string, params?: { after?: string; limit?: number }, signal?: AbortSignal): Promise<Page<FineTuningEvent>>;
  checkpoints(id: string, params?: { after?: string; limit?: number }, signal?: AbortSignal): Promise<Page<FineTuningCheckpoint>>;
}

export interface JobDetails {
  job: FineTuningJob;
  /** Newest first. */
  events: FineTuningEvent[];
  /** Older events were left out (there were more than MAX_EVENTS). */
  eventsCapped: boolean;
  /** Newest first. */
  checkpoints: FineTuningCheckpoint[];
}

/** The training (and validation) loss at one step. */
export interface LossPoint {
  step: number;
  train?: number;
  valid?: number;
}

/** Events kept per job: a long job logs a metrics event per step. */
export const MAX_EVENTS = 5000;
const PAGE = 100;
/** Checkpoints are one per epoch: a few pages at most. */
const MAX_CHECKPOINT_PAGES = 5;

/**
 * Reads the job, its checkpoints and the events `known` does not have yet (`known`: the events of
 * an earlier read, newest first). Bounded: at most MAX_EVENTS events in all.
 */
export async function readJobDetails(api: FineTuningReader, jobId: string, known: readonly FineTuningEvent[] = [], signal?: AbortSignal): Promise<JobDetails> {
  const job = await api.retrieve(jobId, signal);
  const seen = new Set(known.map((e) => e.id));
  const fresh: FineTuningEvent[] = [];
  let after: string | undefined;
  let reachedKnown = false;
  let more = true;
  while (more && !reachedKnown && fresh.length < MAX_EVENTS) {
    const page = await api.events(jobId, { after, limit: PAGE }, signal);
    for (const e of page.data) {
      if (seen.has(e.id)) {
        reachedKnown = true;
        break;
      }
      fresh.push(e);
    }
    more = page.hasMore;
    after = page.next;
  }
  const all = reachedKnown || !known.length ? [...fresh, ...known] : fresh;
  const checkpoints: FineTuningCheckpoint[] = [];
  after = undefined;
  for (let i = 0; i < MAX_CHECKPOINT_PAGES; i++) {
    const page = await api.checkpoints(jobId, { after, limit: PAGE }, signal);
    checkpoints.push(...page.data);
    if (!page.hasMore) break;
    after = page.next;
  }
  const capped = all.length > MAX_EVENTS || (more && !reachedKnown);
  return { job, events: all.slice(0, MAX_EVENTS), eventsCapped: capped, checkpoints };
}

/** A finite number, from a number or a numeric string (services differ); undefined otherwise. */
function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The loss per step, oldest step first: training loss from the metrics events (`data.step`,
 * `data.train_loss`), validation loss from them when they carry it (`valid_loss`, else
 * `full_valid_loss`) and from the checkpoints' metrics at their step otherwise.
 */
export function lossCurve(events: readonly FineTuningEvent[], checkpoints: readonly FineTuningCheckpoint[]): LossPoint[] {
  const points = new Map<number, LossPoint>();
  const put = (step: number | undefined, train: number | undefined, valid: number | undefined) => {
    if (step === undefined || step < 0 || (train === undefined && valid === undefined)) return;
    const p = points.get(step) ?? { step };
    if (train !== undefined && p.train === undefined) p.train = train;
    if (valid !== undefined && p.valid === undefined) p.valid = valid;
    points.set(step, p);
  };
  for (const e of events) {
    const d = e.data;
    if (!d || typeof d !== 'object') continue;
    put(num(d.step), num(d.train_loss), num(d.valid_loss) ?? num(d.full_valid_loss));
  }
  for (const c of checkpoints) {
    const m = c.metrics ?? {};
    put(num(c.step_number) ?? num(m.step), num(m.train_loss), num(m.valid_loss) ?? num(m.full_valid_loss));
  }
  return [...points.values()].sort((a, b) => a.step - b.step);
}
