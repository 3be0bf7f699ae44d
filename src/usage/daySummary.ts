/**
 * Day summaries beside the usage log (`<log>.days`), so that opening the usage view reads only
 * the lines written since: the log's day buckets (see `dayBuckets.ts`) of its first `bytes`, saved
 * with what proves they still describe the file.
 *
 * A summary is used only when the log is the same file (device and inode: a compaction or a clear
 * writes a new one), at least as long, with the same last 4 KiB before `bytes` (a file rewritten
 * in place), written by this version, covering the view's first day (a clock set back), and with
 * each day's records on one day of the view (a summary made in another time zone). Otherwise the
 * log is read whole and the summary made again. It is rewritten (through a temporary file, 0600;
 * two windows may both write one, each whole) once the lines read after it reach
 * `RESUMMARIZE_LINES` or hold a day before today: only today's lines are read again and again.
 */
import { createHash } from 'node:crypto';
import { open, readFile, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { foldBuckets, type AggregateOptions, type UsageSummary } from './aggregate';
import { Bucket, BUCKET_DAYS, DayBuckets } from './dayBuckets';
import { localZone } from './days';
import { TimeHistogram } from './histogram';
import { parseUsageLine } from './line';
import { readLinesFrom } from './lines';
import { USAGE_SOURCES, type RateLimitHeadroom, type UsageSource } from './record';

/** Bumped whenever what a bucket holds, or how a line is read, changes: older summaries are made again. */
export const SUMMARY_VERSION = 1;
export const RESUMMARIZE_LINES = 2000;
/** A summary bigger than this (thousands of deployments) is not written: the log is read instead. */
const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;
const CHECK_BYTES = 4096;

interface Saved {
  version: number;
  dev: number;
  ino: number;
  /** The log's bytes summed (whole lines), how many lines they hold, and the hash of their last 4 KiB. */
  bytes: number;
  lines: number;
  check: string;
  /** Its first day's start: older records were left out. */
  from: number;
  skipped: number;
  buckets: unknown[];
}

export const summaryPath = (logPath: string) => `${logPath}.days`;

/** The view's tables for a log file: the saved days, and the lines after them; the summary saved again when it is due. */
export async function summarizeWithDays(path: string, options: AggregateOptions = {}): Promise<UsageSummary | undefined> {
  const now = options.now ?? Date.now();
  const zone = options.zone ?? localZone;
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return foldBuckets(new DayBuckets(now, zone), options);
  }
  try {
    const { dev, ino, size } = await file.stat();
    let buckets = new DayBuckets(now, zone);
    const saved = await load(path, buckets, { dev, ino, size }, file);
    if (!saved) buckets = new DayBuckets(now, zone);
    const from = saved?.bytes ?? 0;
    const today = buckets.starts[BUCKET_DAYS - 1];
    let closedDay = false;
    const { end, rest } = await readLinesFrom(file, from, (line) => {
      const r = parseUsageLine(line);
      if (!r) return buckets.skip();
      buckets.add(r);
      if (r.at < today) closedDay = true;
    });
    if (closedDay || buckets.lines - (saved?.lines ?? 0) >= RESUMMARIZE_LINES) {
      const check = await checkOf(file, end);
      const head = { version: SUMMARY_VERSION, dev, ino, bytes: end, lines: buckets.lines, check, from: buckets.starts[0], skipped: buckets.skipped };
      await save(path, { ...head, buckets: [] }, buckets);
    }
    // A line still being written counts now, as a whole read counts it, but is not saved.
    if (rest) {
      const r = parseUsageLine(rest);
      if (r) buckets.add(r);
      else buckets.skip();
    }
    return foldBuckets(buckets, options);
  } finally {
    await file.close();
  }
}

/** Puts the saved buckets into `into` and gives the summary, or undefined when there is none the log can use. */
async function load(path: string, into: DayBuckets, log: { dev: number; ino: number; size: number }, file: FileHandle): Promise<Saved | undefined> {
  let saved: Saved;
  try {
    saved = JSON.parse(await readFile(summaryPath(path), 'utf8')) as Saved;
  } catch {
    return undefined;
  }
  if (saved?.version !== SUMMARY_VERSION || saved.ino !== log.ino) return undefined;
  // Stryker disable next-line ConditionalExpression: the bytes the check hashes would not be there either
  if (!(saved.bytes <= log.size)) return undefined;
  // Stryker disable next-line ConditionalExpression: the tests' files are on one device (the inode decides there)
  if (saved.dev !== log.dev) return undefined;
  if (!(saved.from <= into.starts[0]) || !Array.isArray(saved.buckets) || !isCount(saved.lines) || !isCount(saved.skipped)) return undefined;
  if ((await checkOf(file, saved.bytes)) !== saved.check) return undefined;
  for (const value of saved.buckets) {
    const b = bucketOf(value);
    if (!b || !into.put(b)) return undefined;
  }
  into.lines = saved.lines;
  into.skipped = saved.skipped;
  return saved;
}

async function save(path: string, head: Saved, buckets: DayBuckets): Promise<void> {
  for (const [b] of buckets.all()) head.buckets.push(jsonOf(b));
  const text = JSON.stringify(head);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: only bounds the disk a summary takes
  if (text.length > MAX_SUMMARY_BYTES) return;
  // Stryker disable next-line StringLiteral,MethodExpression: any name no other process uses
  const tmp = `${summaryPath(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, summaryPath(path));
  } catch {
    // A summary is only a shortcut: the next read makes it again.
    // Stryker disable next-line ArrowFunction: a temporary file that was never made
    await unlink(tmp).catch(() => undefined);
  }
}

/** The hash of the 4 KiB of the file before `end`. */
async function checkOf(file: FileHandle, end: number): Promise<string> {
  const start = Math.max(0, end - CHECK_BYTES);
  const { buffer, bytesRead } = await file.read(Buffer.alloc(end - start), 0, end - start, start);
  return createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('base64');
}

function jsonOf(b: Bucket): Record<string, unknown> {
  return {
    day: b.day,
    connectionId: b.connectionId,
    deployment: b.deployment,
    model: b.model,
    modelVersion: b.modelVersion,
    source: b.source,
    minAt: b.minAt,
    maxAt: b.maxAt,
    lastAt: b.lastAt,
    lastSeq: b.lastSeq,
    label: b.label,
    counts: [b.records, b.requests, b.prompt, b.cached, b.cachedForCost, b.completion, b.reasoning, b.rateLimited, b.errors],
    firstToken: b.firstToken.toJSON(),
    total: b.total.toJSON(),
    headroom: b.headroom && [b.headroomAt, b.headroomSeq, b.headroom],
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isName = (v: unknown): v is string => typeof v === 'string';
const isOptionalName = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

/** A saved bucket read back, checked field by field; undefined when anything is off. */
export function bucketOf(value: unknown): Bucket | undefined {
  const v = (value ?? {}) as Record<string, unknown>;
  const { connectionId, deployment, model, modelVersion, source, label, counts } = v;
  if (!isName(connectionId) || !isName(deployment) || !isOptionalName(model) || !isOptionalName(modelVersion) || !isName(label)) return undefined;
  if (!USAGE_SOURCES.includes(source as UsageSource) || !Array.isArray(counts) || counts.length !== 9 || !counts.every(isCount)) return undefined;
  if (![v.day, v.minAt, v.maxAt, v.lastAt].every(isCount) || !isCount(v.lastSeq) || (v.minAt as number) > (v.maxAt as number)) return undefined;
  const firstToken = TimeHistogram.fromJSON(v.firstToken);
  const total = TimeHistogram.fromJSON(v.total);
  if (!firstToken || !total) return undefined;
  const b = new Bucket(v.day as number, { connectionId, deployment, model, modelVersion, source: source as UsageSource });
  b.minAt = v.minAt as number;
  b.maxAt = v.maxAt as number;
  b.lastAt = v.lastAt as number;
  b.lastSeq = v.lastSeq as number;
  b.label = label;
  [b.records, b.requests, b.prompt, b.cached, b.cachedForCost, b.completion, b.reasoning, b.rateLimited, b.errors] = counts as number[];
  b.firstToken = firstToken;
  b.total = total;
  if (v.headroom !== undefined) {
    const [at, seq, headroom] = Array.isArray(v.headroom) ? (v.headroom as unknown[]) : [];
    const h = headroomOf(headroom);
    if (!isCount(at) || !isCount(seq) || !h) return undefined;
    b.headroom = h;
    b.headroomAt = at;
    b.headroomSeq = seq;
  }
  return b;
}

/** Rate-limit headers as a record holds them: the four counts, those not sent undefined, at least one sent. */
function headroomOf(value: unknown): RateLimitHeadroom | undefined {
  const h = (value ?? {}) as Record<string, unknown>;
  const out: RateLimitHeadroom = { remainingRequests: undefined, remainingTokens: undefined, limitRequests: undefined, limitTokens: undefined };
  let any = false;
  for (const k of Object.keys(out) as Array<keyof RateLimitHeadroom>) {
    if (h[k] === undefined) continue;
    if (!isCount(h[k])) return undefined;
    out[k] = h[k];
    any = true;
  }
  return any ? out : undefined;
}
