/**
 * Reading a stored usage line. The log's own lines (written by `createUsageRecord`, in its order)
 * are read by two sticky regular expressions around the names, which are read once per distinct
 * text (a log repeats a few): about 3x faster than JSON.parse, so a million records are summed in
 * about a second. Any other line (another order, a hand edit, a torn write) goes through
 * JSON.parse and `validateUsageRecord`, which decide what a record is; both paths give the same
 * record.
 */
import { MAX_NAME_LENGTH, validateUsageRecord, type RateLimitHeadroom, type UsageOutcome, type UsageRecord } from './record';

type Who = Pick<UsageRecord, 'connectionId' | 'connectionLabel' | 'deployment' | 'model' | 'modelVersion'>;

/** The "who" part's keys, in the writer's order; the last two may be left out. */
const WHO_KEYS = ['connectionId', 'connectionLabel', 'deployment', 'model', 'modelVersion'] as const;

/** The names of a "who" part (`"connectionId":…,"modelVersion":…`), checked as the full reader checks them. */
function readWho(text: string): Who | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(`{${text}}`) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const keys = Object.keys(parsed);
  // The writer's order exactly: a key repeated or out of place is for the full reader to judge.
  // Stryker disable next-line all: names this lets through or not, the full reader judges the same
  if (keys.length < 3 || keys.some((k, i) => k !== WHO_KEYS[i])) return undefined;
  for (const k of keys) {
    const v = parsed[k];
    // Stryker disable next-line all: names this lets through or not, the full reader judges the same
    if (typeof v !== 'string' || v.length > MAX_NAME_LENGTH || (v.length === 0 && k !== 'connectionLabel')) return undefined;
  }
  const { connectionId, connectionLabel, deployment, model, modelVersion } = parsed as unknown as Who;
  return { connectionId, connectionLabel, deployment, model, modelVersion };
}

/**
 * A log holds a few distinct "who" parts (one per deployment), repeated on every line: each is
 * read once. The last few are compared first (cheaper than hashing a long string for the map).
 * Keys are copies: a slice of the line would keep the whole chunk it was read from alive.
 */
interface Known {
  text: string;
  who: Who | undefined;
}
const recent: Known[] = [];
const RECENT = 16;
let next = 0;
const known = new Map<string, Known>();
const MAX_KNOWN = 10_000;

function who(text: string): Who | undefined {
  // Stryker disable next-line EqualityOperator,ConditionalExpression,BlockStatement: a shortcut; the map gives the same
  for (let i = 0; i < recent.length; i++) if (recent[i].text === text) return recent[i].who;
  let k = known.get(text);
  // Stryker disable next-line all: reading the names again gives the same
  if (!k) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only bounds memory
    if (known.size >= MAX_KNOWN) known.clear();
    // Stryker disable next-line StringLiteral: utf8 is also the default
    const own = Buffer.from(text, 'utf8').toString('utf8');
    k = { text: own, who: readWho(own) };
    // Stryker disable next-line all: only the cache
    known.set(own, k);
  }
  recent[next] = k;
  // Stryker disable next-line ArithmeticOperator: which slot the shortcut reuses
  next = (next + 1) % RECENT;
  return k.who;
}

/** A JSON integer as the writer prints it: no sign, no leading zero, no exponent, safe. */
const N = '(0|[1-9]\\d{0,14})';

/** The rate limit's counts: each may be missing, at least one is there (the lookahead), no comma dangles (the lookbehind). */
const HEADROOM = ['remainingRequests', 'remainingTokens', 'limitRequests', 'limitTokens'].map((k) => `(?:"${k}":${N}(?=[,}]),?)?`).join('');

/** The line's start, up to the names: capture 1 is `at`. */
const HEAD = /\{"at":(0|[1-9]\d{0,14}),/y;

/**
 * The rest, from the API on, read where the names end (sticky: no search, no substring of the
 * line). Captures: 1-3 api, route, source, 4 requests, 5-8 tokens, 9-10 times, 11-13 outcome,
 * 14-17 rate limit.
 */
const TAIL = new RegExp(
  [
    '"(chat|responses)","route":"(v1|deployment)","source":"(panel|vscode-chat|compare|batch|inline)"',
    `(?:,"requests":${N})?`,
    `,"tokens":\\{"prompt":${N},"cached":${N},"completion":${N},"reasoning":${N}\\}`,
    `(?:,"firstTokenMs":${N})?(?:,"totalMs":${N})?`,
    `,"outcome":\\{"kind":"(ok|stopped|content_filter|rate_limited|error)"(?:,"(waitMs|status)":${N})?\\}`,
    `(?:,"rateLimit":\\{(?=")${HEADROOM}(?<!,)\\})?\\}$`,
  ].join(''),
  'y',
);
const API_AT = ',"api":';

/** A run of at most 15 digits the expression matched, read digit by digit (cheaper than Number() on a fresh string). */
function int(digits: string): number {
  let n = 0;
  for (let i = 0; i < digits.length; i++) n = n * 10 + digits.charCodeAt(i) - 48;
  return n;
}
const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : int(s));
/** Outcomes without a number are shared: a million records need not hold a million of them. */
const PLAIN: Record<string, UsageOutcome> = { ok: Object.freeze({ kind: 'ok' }), stopped: Object.freeze({ kind: 'stopped' }), content_filter: Object.freeze({ kind: 'content_filter' }) };

function outcome(kind: string, key: string | undefined, value: string | undefined): UsageOutcome | undefined {
  if (kind === 'rate_limited') return key === 'status' ? undefined : { kind, waitMs: num(value) };
  if (kind === 'error') return key === 'waitMs' ? undefined : { kind, status: num(value) };
  return key === undefined ? PLAIN[kind] : undefined;
}

function headroom(m: RegExpExecArray): RateLimitHeadroom | undefined {
  if (m[14] === undefined && m[15] === undefined && m[16] === undefined && m[17] === undefined) return undefined;
  return { remainingRequests: num(m[14]), remainingTokens: num(m[15]), limitRequests: num(m[16]), limitTokens: num(m[17]) };
}

/** The log's own layout, or undefined when the line needs the full reader. */
export function readOwnLine(line: string): UsageRecord | undefined {
  HEAD.lastIndex = 0;
  const head = HEAD.exec(line);
  if (!head) return undefined;
  // Inside a JSON string every quote is escaped, so the first `,"api":` ends the names.
  const whoEnd = line.indexOf(API_AT, HEAD.lastIndex);
  // Stryker disable next-line all: without it the tail's expression fails instead
  if (whoEnd < 0) return undefined;
  TAIL.lastIndex = whoEnd + API_AT.length;
  const m = TAIL.exec(line);
  if (!m) return undefined;
  const requests = num(m[4]);
  const out = outcome(m[11], m[12], m[13]);
  // A count of one request is not what the writer writes.
  // Stryker disable next-line EqualityOperator: a count of 2 left to the full reader is read the same
  if (!out || (requests !== undefined && requests < 2)) return undefined;
  const w = who(line.slice(HEAD.lastIndex, whoEnd));
  if (!w) return undefined;
  return {
    at: int(head[1]),
    connectionId: w.connectionId,
    connectionLabel: w.connectionLabel,
    deployment: w.deployment,
    model: w.model,
    modelVersion: w.modelVersion,
    api: m[1] as UsageRecord['api'],
    route: m[2] as UsageRecord['route'],
    source: m[3] as UsageRecord['source'],
    requests,
    tokens: { prompt: int(m[5]), cached: int(m[6]), completion: int(m[7]), reasoning: int(m[8]) },
    firstTokenMs: num(m[9]),
    totalMs: num(m[10]),
    outcome: out,
    rateLimit: headroom(m),
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
