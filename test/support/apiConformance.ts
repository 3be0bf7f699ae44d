/**
 * The emulator's answers checked against the response schemas of OpenAI's and Azure's API
 * descriptions (the extracts scripts/api-descriptions.mjs writes into test/fixtures/api-descriptions):
 * the status must be one the operation describes, the content type one it describes for that
 * status, and the body (each SSE event's data for a stream) valid against that schema.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';

export type Description = 'openai' | 'azure-v1' | 'azure-2024-10-21';
export const DESCRIPTIONS: Description[] = ['openai', 'azure-v1', 'azure-2024-10-21'];
export const DESCRIPTIONS_DIR = join(__dirname, '..', 'fixtures', 'api-descriptions');

interface Extract {
  source: { repository: string; file: string; commit: string };
  operations: Record<string, Record<string, Record<string, unknown>>>;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}

/** Each description's extract, or why it is missing (the check says so rather than passing). */
export function missingDescriptions(needed: Description[] = DESCRIPTIONS): string[] {
  return needed.filter((d) => !existsSync(join(DESCRIPTIONS_DIR, `${d}.json`)));
}

const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: false });
// The formats the extracts use, checked as their descriptions define them.
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('date-time', (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)));
ajv.addFormat('unixtime', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
for (const f of ['int32', 'int64']) ajv.addFormat(f, { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
ajv.addFormat('base64', /^[A-Za-z0-9+/]*={0,2}$/);
ajv.addFormat('binary', () => true);

const loaded = new Map<Description, Extract>();
function extract(d: Description): Extract {
  let x = loaded.get(d);
  if (!x) {
    x = JSON.parse(readFileSync(join(DESCRIPTIONS_DIR, `${d}.json`), 'utf8')) as Extract;
    ajv.addSchema(x, id(d));
    loaded.set(d, x);
  }
  return x;
}
const id = (d: Description) => `https://api-descriptions.test/${d}.json`;
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const compiled = new Map<string, ValidateFunction>();
function validator(d: Description, path: string): ValidateFunction {
  const ref = `${id(d)}#/${path}`;
  let v = compiled.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: ref });
    compiled.set(ref, v);
  }
  return v;
}

const explain = (errors: ErrorObject[] | null | undefined, body: unknown) =>
  (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
    .join('\n') + `\nbody: ${JSON.stringify(body).slice(0, 600)}`;

/** The JSON value at a pointer into an extract, following `$ref`s on the way. */
function at(d: Description, path: string): Record<string, unknown> {
  let node: unknown = extract(d);
  for (const part of path.split('/')) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  const ref = (node as { $ref?: string }).$ref;
  return ref ? at(d, ref.slice(2)) : (node as Record<string, unknown>);
}

/**
 * Where a union (anyOf/oneOf) is told apart by `type`, the branch for this body's type: its
 * errors say what is wrong, where the union's own list every branch the body is not.
 */
function branchFor(d: Description, path: string, body: unknown): string | undefined {
  const type = (body as { type?: unknown })?.type;
  if (typeof type !== 'string') return undefined;
  const union = at(d, path);
  const branches = (union.anyOf ?? union.oneOf) as Array<{ $ref?: string }> | undefined;
  const hit = branches?.find((b) => {
    if (!b.$ref) return false;
    const t = (at(d, b.$ref.slice(2)).properties as Record<string, { enum?: unknown[]; const?: unknown }> | undefined)?.type;
    return t?.enum?.includes(type) || t?.const === type;
  });
  return hit?.$ref?.slice(2);
}

function assertValid(d: Description, path: string, body: unknown, what: string): void {
  const v = validator(d, path);
  if (v(body)) return;
  const branch = branchFor(d, path, body);
  const b = branch ? validator(d, branch) : undefined;
  const errors = b && !b(body) ? b.errors : v.errors;
  assert.fail(`${what} does not conform to ${d} (${branch ?? path}):\n${explain(errors, body)}`);
}

/** An answer as read off the wire. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** The schema an operation describes for this status and content type, after checking both are described. */
function responseSchemaPath(d: Description, op: string, status: number, contentType: string): string | undefined {
  const x = extract(d);
  const responses = x.operations[op];
  assert.ok(responses, `${d} describes no operation ${op} in the extract`);
  const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : 'default';
  const contents = responses[key];
  assert.ok(contents, `${op}: ${d} describes no ${status} answer (described: ${Object.keys(responses).join(', ')})`);
  if (Object.keys(contents).length === 0) return undefined; // described without a body
  assert.ok(contentType in contents, `${op} ${status}: content type ${contentType || '(none)'} is not one ${d} describes (${Object.keys(contents).join(', ')})`);
  return pointer('operations', op, key, contentType);
}

/** Checks a JSON answer: the status and content type described, the body valid against the schema. */
export function conformsJson(d: Description, op: string, a: Answer): void {
  const path = responseSchemaPath(d, op, a.status, a.contentType);
  if (path) assertValid(d, path, JSON.parse(a.text), `${op} ${a.status}`);
}

/** Checks an answer the description declares without a body; what the emulator sent is returned for the caller's own checks. */
export function conformsEmpty(d: Description, op: string, a: Answer): void {
  assert.equal(responseSchemaPath(d, op, a.status, a.contentType), undefined, `${op} ${a.status}: ${d} describes a body`);
}

export interface SseEvent {
  event?: string;
  data: string;
}

/** The events of a server-sent event stream, in order. */
export function sseEvents(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() && !block.trim().startsWith(':'))
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      return { ...(event ? { event } : {}), data };
    });
}

/**
 * Checks a streamed answer: each event's data against the schema `text/event-stream` names for the
 * operation (or, where the description names none, against `schema`), `[DONE]` only last. Returns the parsed events.
 */
export function conformsStream(d: Description, op: string, a: Answer, schema?: string): Array<Record<string, unknown>> {
  return checkStream(d, op, a, schema, false);
}

/**
 * A chat stream as Azure sends it: first a frame with the prompt's filter results, whose id,
 * object, model and created are empty (the service sends it so, though every description types
 * the chunk as chat.completion.chunk); its results are checked against Azure's
 * promptFilterResults, every other chunk against the description's chunk schema.
 */
export function conformsAzureChatStream(d: Description, op: string, a: Answer, schema?: string): Array<Record<string, unknown>> {
  return checkStream(d, op, a, schema, true);
}

const isPromptFrame = (c: Record<string, unknown>) =>
  c.id === '' && c.object === '' && c.model === '' && c.created === 0 && Array.isArray(c.choices) && c.choices.length === 0 && Array.isArray(c.prompt_filter_results);

function checkStream(d: Description, op: string, a: Answer, schema: string | undefined, azureFrame: boolean): Array<Record<string, unknown>> {
  assert.equal(a.status, 200, `${op}: a stream answers 200 (${a.text.slice(0, 300)})`);
  assert.equal(a.contentType, 'text/event-stream', `${op}: a stream's content type`);
  const path = schema ? pointer('components', 'schemas', schema) : responseSchemaPath(d, op, a.status, a.contentType);
  assert.ok(path, `${op}: ${d} describes the stream's events`);
  const events = sseEvents(a.text);
  assert.ok(events.length > 1, `${op}: the stream has events`);
  const parsed: Array<Record<string, unknown>> = [];
  events.forEach((e, i) => {
    if (e.data === '[DONE]') {
      assert.equal(i, events.length - 1, `${op}: [DONE] ends the stream`);
      return;
    }
    const body = JSON.parse(e.data) as Record<string, unknown>;
    if (azureFrame && i === 0) {
      assert.ok(isPromptFrame(body), `${op}: Azure's stream starts with the prompt's filter results: ${e.data.slice(0, 300)}`);
      conformsSchema('azure-2024-10-21', 'promptFilterResults', body.prompt_filter_results);
      parsed.push(body);
      return;
    }
    assertValid(d, path, body, `${op} event ${i}${e.event ? ` (${e.event})` : ''}`);
    if (e.event) assert.equal(body.type, e.event, `${op} event ${i}: the event name is the data's type`);
    parsed.push(body);
  });
  return parsed;
}

/** Checks a value against a named component schema (a webhook's payload, a filter result, an error body). */
export function conformsSchema(d: Description, schema: string, body: unknown): void {
  extract(d);
  assertValid(d, pointer('components', 'schemas', schema), body, schema);
}

/** Checks a webhook delivery's body against the description's webhook of that name. */
export function conformsWebhook(d: Description, name: string, body: unknown): void {
  assert.ok(name in extract(d).webhooks, `${d} describes no webhook ${name} in the extract`);
  assertValid(d, pointer('webhooks', name), body, `webhook ${name}`);
}

/** The streamed choice that ended the reply (its finish_reason set), with its filter results. */
export function finishingChoice(chunks: Array<Record<string, unknown>>): { finish_reason: string; content_filter_results?: unknown } | undefined {
  type Choice = { finish_reason: string | null; content_filter_results?: unknown };
  const choice = chunks.flatMap((c) => (c.choices as Choice[] | undefined) ?? []).find((c) => c.finish_reason);
  return choice as { finish_reason: string; content_filter_results?: unknown } | undefined;
}
