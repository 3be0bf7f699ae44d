/**
 * Reading a stored usage line. The log's own lines (written by `createUsageRecord`, in its order,
 * names without escapes) are read by one regular expression, about twice as fast as JSON.parse
 * plus the checks: that is what lets a million records be summed in a second or two. Any other
 * line (another order, escaped characters, a hand edit) goes through JSON.parse and
 * `validateUsageRecord`, which decide what a record is; both paths give the same record.
 */
import { validateUsageRecord, type RateLimitHeadroom, type UsageOutcome, type UsageRecord } from './record';

/** A JSON integer as the writer prints it: no sign, no leading zero, no exponent, safe. */
const N = '(0|[1-9]\\d{0,14})';
/** A JSON string without escapes (not captured); `min` 0 allows the empty label. */
const S = (min: number) => `"[^"\\\\\\u0000-\\u001f]{${min},256}"`;

/** Captures: 1 at, 2 who (connection to model version, one string), 3-5 api, route, source, 6-9 tokens, 10-11 times, 12-14 outcome, 15-18 rate limit. */
const LINE = new RegExp(
  [
    `^\\{"at":${N},(`,
    `"connectionId":${S(1)},"connectionLabel":${S(0)},"deployment":${S(1)}(?:,"model":${S(1)})?(?:,"modelVersion":${S(1)})?)`,
    ',"api":"(chat|responses)","route":"(v1|deployment)","source":"(panel|vscode-chat|compare|batch)"',
    `,"tokens":\\{"prompt":${N},"cached":${N},"completion":${N},"reasoning":${N}\\}`,
    `(?:,"firstTokenMs":${N})?,"totalMs":${N}`,
    `,"outcome":\\{"kind":"(ok|stopped|content_filter|rate_limited|error)"(?:,"(waitMs|status)":${N})?\\}`,
    `(?:,"rateLimit":\\{"remainingRequests":${N},"remainingTokens":${N}(?:,"limitRequests":${N},"limitTokens":${N})?\\})?\\}$`,
  ].join(''),
);

type Who = Pick<UsageRecord, 'connectionId' | 'connectionLabel' | 'deployment' | 'model' | 'modelVersion'>;

/**
 * A log holds a few distinct "who" parts (one per deployment), repeated on every line: each is
 * read once. The last few are compared first (cheaper than hashing a long string for the map).
 * Keys are copies: a slice of the line would keep the whole chunk it was read from alive.
 */
interface Known {
  text: string;
  who: Who;
}
const recent: Known[] = [];
const RECENT = 16;
let next = 0;
const known = new Map<string, Known>();
const MAX_KNOWN = 10_000;

function who(text: string): Who {
  // Stryker disable next-line EqualityOperator,ConditionalExpression,BlockStatement: a shortcut; the map gives the same
  for (let i = 0; i < recent.length; i++) if (recent[i].text === text) return recent[i].who;
  let k = known.get(text);
  // Stryker disable next-line all: reading the names again gives the same
  if (!k) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only bounds memory
    if (known.size >= MAX_KNOWN) known.clear();
    // Stryker disable next-line StringLiteral: utf8 is also the default
    const own = Buffer.from(text, 'utf8').toString('utf8');
    // The expression let through plain strings only: this cannot throw.
    const { connectionId, connectionLabel, deployment, model, modelVersion } = JSON.parse(`{${own}}`) as Who;
    k = { text: own, who: { connectionId, connectionLabel, deployment, model, modelVersion } };
    // Stryker disable next-line all: only the cache
    known.set(own, k);
  }
  recent[next] = k;
  // Stryker disable next-line ArithmeticOperator: which slot the shortcut reuses
  next = (next + 1) % RECENT;
  return k.who;
}

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));
/** Outcomes without a number are shared: a million records need not hold a million of them. */
const PLAIN: Record<string, UsageOutcome> = { ok: Object.freeze({ kind: 'ok' }), stopped: Object.freeze({ kind: 'stopped' }), content_filter: Object.freeze({ kind: 'content_filter' }) };

function outcome(kind: string, key: string | undefined, value: string | undefined): UsageOutcome | undefined {
  if (kind === 'rate_limited') return key === 'status' ? undefined : { kind, waitMs: num(value) };
  if (kind === 'error') return key === 'waitMs' ? undefined : { kind, status: num(value) };
  return key === undefined ? PLAIN[kind] : undefined;
}

function headroom(rr?: string, rt?: string, lr?: string, lt?: string): RateLimitHeadroom | undefined {
  if (rr === undefined) return undefined;
  return { remainingRequests: Number(rr), remainingTokens: Number(rt), limitRequests: num(lr), limitTokens: num(lt) };
}

/** The log's own layout, or undefined when the line needs the full reader. */
export function readOwnLine(line: string): UsageRecord | undefined {
  const m = LINE.exec(line);
  if (!m) return undefined;
  const out = outcome(m[12], m[13], m[14]);
  if (!out) return undefined;
  const w = who(m[2]);
  return {
    at: Number(m[1]),
    connectionId: w.connectionId,
    connectionLabel: w.connectionLabel,
    deployment: w.deployment,
    model: w.model,
    modelVersion: w.modelVersion,
    api: m[3] as UsageRecord['api'],
    route: m[4] as UsageRecord['route'],
    source: m[5] as UsageRecord['source'],
    tokens: { prompt: Number(m[6]), cached: Number(m[7]), completion: Number(m[8]), reasoning: Number(m[9]) },
    firstTokenMs: num(m[10]),
    totalMs: Number(m[11]),
    outcome: out,
    rateLimit: headroom(m[15], m[16], m[17], m[18]),
  };
}

/** One stored line as a record, or undefined for a torn or foreign line. */
export function parseUsageLine(line: string): UsageRecord | undefined {
  const own = readOwnLine(line);
  // Stryker disable next-line ConditionalExpression: the full reader gives the same record, only slower
  if (own) return own;
  return validateUsageRecord(parseJson(line));
}

// Stryker disable next-line BlockStatement: an empty catch gives undefined too
const parseJson = (text: string): unknown => { try { return JSON.parse(text); } catch { return undefined; } };
