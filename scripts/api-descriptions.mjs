#!/usr/bin/env node
/**
 * Writes the extracts of OpenAI's and Azure's API descriptions that the conformance check
 * (test/loopback/api-conformance.test.ts) validates the emulator against: only the operations the
 * emulator serves, their response schemas and every schema they reach, with descriptions and
 * examples dropped and OpenAPI 3.0's `nullable` turned into JSON Schema 2020-12, so that the
 * check runs offline with one validator.
 *
 *   node scripts/api-descriptions.mjs openai <openapi.json|yaml> <commit> [outDir]
 *   node scripts/api-descriptions.mjs azure-v1 <azure-v1-v1-generated.json> <commit> [outDir]
 *   node scripts/api-descriptions.mjs azure-2024-10-21 <inference.json> <commit> [outDir]
 *
 * The full files come from github.com/openai/openai-openapi and github.com/Azure/azure-rest-api-specs
 * (both MIT); the header of each extract names the repository, file, commit and licence.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const JOBS = ['', '/{id}', '/{id}/cancel', '/{id}/pause', '/{id}/resume', '/{id}/events', '/{id}/checkpoints'];
const WEBHOOKS = ['batch_completed', 'batch_failed', 'batch_cancelled', 'batch_expired', 'fine_tuning_job_succeeded', 'fine_tuning_job_failed',
  'fine_tuning_job_cancelled', 'response_completed', 'response_failed', 'response_incomplete', 'response_cancelled', 'realtime_call_incoming'];

/** What each description is asked for: operations as `METHOD /path` ({id} stands for any path parameter), webhooks, and named schemas. */
export const SOURCES = {
  openai: {
    repository: 'https://github.com/openai/openai-openapi',
    file: 'openapi.json',
    operations: [
      'POST /chat/completions', 'GET /models', 'POST /responses', 'GET /responses/{id}', 'DELETE /responses/{id}', 'POST /responses/{id}/cancel',
      'GET /responses/{id}/input_items', 'POST /files', 'GET /files', 'GET /files/{id}', 'DELETE /files/{id}', 'GET /files/{id}/content',
      'POST /batches', 'GET /batches', 'GET /batches/{id}', 'POST /batches/{id}/cancel',
      ...JOBS.map((p, i) => `${i === 0 || /cancel|pause|resume/.test(p) ? 'POST' : 'GET'} /fine_tuning/jobs${p}`), 'GET /fine_tuning/jobs',
      'POST /realtime/calls/{id}/accept', 'POST /realtime/calls/{id}/reject', 'POST /realtime/calls/{id}/refer', 'POST /realtime/calls/{id}/hangup',
    ],
    webhooks: WEBHOOKS,
    schemas: ['ErrorResponse'],
    errata: [
      {
        at: 'components/schemas/ModelResponseProperties/properties/user',
        nullable: true,
        why:
          "A response's `user` is null when the request set none: so in the description's own examples " +
          '(ResponseCreatedEvent, ResponseInProgressEvent) and in the service\'s answers; the schema says string only.',
      },
      {
        at: 'components/schemas/Response/allOf/2/properties/usage',
        nullable: true,
        why: "A response's `usage` is null until it ends (queued, in progress, cancelled): so in the description's own examples; the schema says object only.",
      },
      ...['errors', 'output_file_id', 'error_file_id', 'in_progress_at', 'expires_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at', 'cancelling_at', 'cancelled_at']
        .map((field) => ({
          at: `components/schemas/Batch/properties/${field}`,
          nullable: true,
          why: `A batch's \`${field}\` is null until it applies: so in the description's own example of POST /batches; the schema does not allow null.`,
        })),
      {
        at: 'components/schemas/FineTuningJob/properties/status',
        enumAdd: ['pausing', 'paused'],
        why: "The description has POST /fine_tuning/jobs/{id}/pause and /resume, but its job status enum lacks the states pause leads to; OpenAI's API reference for pause lists pausing and paused.",
      },
      ...['POST /responses/{id}/cancel', 'DELETE /responses/{id}'].map((op) => ({
        at: `operations/${op.replace(/\//g, '~1')}/404/application~1json`,
        replace: { $ref: '#/components/schemas/ErrorResponse' },
        why: `${op} describes its 404 body as \`Error\`, the object inside the body: the service answers {"error": {...}}, the description's own ErrorResponse.`,
      })),
    ],
  },
  'azure-v1': {
    repository: 'https://github.com/Azure/azure-rest-api-specs',
    file: 'specification/ai/data-plane/OpenAI.v1/azure-v1-v1-generated.json',
    operations: ['POST /chat/completions'],
    webhooks: [],
    schemas: ['AzureErrorResponse', 'AzureContentFilterResultForPrompt', 'AzureContentFilterResultForChoice'],
    errata: [
      {
        at: 'components/schemas/AzureErrorResponse/properties/error/properties/type',
        replace: { type: ['string', 'null'] },
        why:
          "The v1 description makes error.type the constant 'error', which neither the 2024-10-21 description (a string) nor the service follows: " +
          "the content filter's 400 has type null (as Azure's content filtering documentation shows), invalid requests 'invalid_request_error'.",
      },
    ],
  },
  'azure-2024-10-21': {
    repository: 'https://github.com/Azure/azure-rest-api-specs',
    file: 'specification/cognitiveservices/data-plane/AzureOpenAI/inference/stable/2024-10-21/inference.json',
    operations: ['POST /deployments/{id}/chat/completions'],
    webhooks: [],
    schemas: ['errorResponse', 'promptFilterResults', 'contentFilterPromptResults', 'contentFilterChoiceResults'],
    errata: [
      {
        at: 'components/schemas/error/properties/type',
        nullable: true,
        why: "The content filter's 400 carries \"type\": null, as Azure's content filtering documentation shows it; the schema says string only.",
      },
    ],
  },
};

/** Keywords that say nothing a validator checks, or point at schemas the extract leaves out. */
const DROPPED = new Set(['description', 'example', 'examples', 'title', 'discriminator', 'externalDocs', 'deprecated', 'readOnly', 'writeOnly', 'xml']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** A copy of a schema without the dropped keywords, with `nullable` made JSON Schema. */
function clean(schema, openapi30, refs) {
  if (Array.isArray(schema)) return schema.map((s) => clean(s, openapi30, refs));
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (DROPPED.has(k) || k.startsWith('x-') || k === 'nullable') continue;
    if (k === '$ref') {
      refs.add(v);
      out[k] = v;
    } else if (SCHEMA_MAPS.has(k)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, clean(s, openapi30, refs)]));
    else if (SCHEMA_LISTS.has(k)) out[k] = v.map((s) => clean(s, openapi30, refs));
    else if (v && typeof v === 'object' && !Array.isArray(v) && k !== 'enum' && k !== 'const' && k !== 'default') out[k] = clean(v, openapi30, refs);
    else out[k] = v;
  }
  // OpenAPI 3.0's boolean exclusiveMinimum/Maximum (still in a few places of OpenAI's 3.1 file) as 2020-12's numbers.
  for (const [ex, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']]) {
    if (typeof out[ex] !== 'boolean') continue;
    if (out[ex]) out[ex] = out[bound];
    else delete out[ex];
    if (out[ex] !== undefined) delete out[bound];
  }
  // OpenAPI 3.0's keyword; OpenAI's 3.1 description still uses it in a few places, meaning the same.
  return schema.nullable === true ? nullable(out) : out;
}

/** OpenAPI 3.0's `nullable: true` in 2020-12 terms: null is one more value the schema takes. */
function nullable(s) {
  if (typeof s.type === 'string' && !s.$ref && !s.allOf && !s.oneOf && !s.anyOf) {
    return { ...s, type: [s.type, 'null'], ...(s.enum ? { enum: [...s.enum, null] } : {}) };
  }
  return { anyOf: [s, { type: 'null' }] };
}

/** `POST /files/{id}` against the description's own path names: any `{…}` matches any `{…}`. */
function findOperation(doc, op) {
  const [method, path] = op.split(' ');
  const shape = (p) => p.replace(/\{[^}]+\}/g, '{}');
  const key = Object.keys(doc.paths).find((p) => shape(p) === shape(path));
  const found = key && doc.paths[key][method.toLowerCase()];
  if (!found) throw new Error(`${op}: not in the description`);
  return found;
}

function responsesOf(operation, openapi30, refs) {
  const out = {};
  for (const [status, r] of Object.entries(operation.responses ?? {})) {
    out[status] = Object.fromEntries(Object.entries(r.content ?? {}).map(([type, c]) => [type, clean(c.schema ?? {}, openapi30, refs)]));
  }
  return out;
}

export function extract(name, doc, commit) {
  const src = SOURCES[name];
  const openapi30 = String(doc.openapi).startsWith('3.0');
  const refs = new Set(src.schemas.map((s) => `#/components/schemas/${s}`));
  const operations = Object.fromEntries(src.operations.map((op) => [op, responsesOf(findOperation(doc, op), openapi30, refs)]));
  const webhooks = Object.fromEntries(src.webhooks.map((w) => [w, clean(doc.webhooks[w].post.requestBody.content['application/json'].schema, openapi30, refs)]));
  const schemas = {};
  for (const ref of refs) {
    const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!m) throw new Error(`${ref}: only local schema references are followed`);
    const key = m[1].replace(/~1/g, '/').replace(/~0/g, '~');
    if (!(key in doc.components.schemas)) throw new Error(`${ref}: not in the description`);
    if (!(key in schemas)) schemas[key] = clean(doc.components.schemas[key], openapi30, refs); // adds what it reaches to `refs`
  }
  const out = {
    source: { repository: src.repository, file: src.file, commit, licence: 'MIT', openapi: doc.openapi, extractedBy: 'scripts/api-descriptions.mjs' },
    errata: (src.errata ?? []).map(({ at, why }) => ({ at, why })),
    operations,
    webhooks,
    components: { schemas: Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]])) },
  };
  for (const e of src.errata ?? []) amend(out, e);
  return out;
}

/**
 * An erratum: where the description's schema contradicts its own examples and the service, the
 * extract says what the service sends, and lists the change with its reason (`errata`).
 */
function amend(out, { at, nullable: orNull, replace, enumAdd }) {
  const parts = at.split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = parts.pop();
  let parent = out;
  for (const p of parts) parent = parent?.[p];
  if (!parent || !(last in parent)) throw new Error(`erratum ${at}: not in the extract (has the description changed?)`);
  if (orNull) parent[last] = { anyOf: [parent[last], { type: 'null' }] };
  if (replace) parent[last] = replace;
  if (enumAdd) parent[last] = { ...parent[last], enum: [...parent[last].enum, ...enumAdd] };
}

async function load(file) {
  const text = readFileSync(file, 'utf8');
  if (/\.ya?ml$/i.test(file)) return (await import('js-yaml')).load(text);
  return JSON.parse(text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, file, commit, outDir = 'test/fixtures/api-descriptions'] = process.argv.slice(2);
  if (!SOURCES[name] || !file || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
    console.error(`usage: node scripts/api-descriptions.mjs ${Object.keys(SOURCES).join('|')} <description file> <40-hex commit> [outDir]`);
    process.exit(2);
  }
  const out = extract(name, await load(file), commit);
  mkdirSync(outDir, { recursive: true });
  const target = join(outDir, `${name}.json`);
  writeFileSync(target, `${JSON.stringify(out)}\n`);
  console.log(`${target}: ${Object.keys(out.operations).length} operations, ${Object.keys(out.components.schemas).length} schemas, ${readFileSync(target).length} bytes`);
}
