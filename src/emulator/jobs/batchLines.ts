/**
 * Validation of a batch input file, as the service does it once the batch starts: every line a
 * JSON request with a unique `custom_id`, `POST`, the batch's endpoint, and one Global-Batch or
 * Data Zone Batch deployment as `model`. Problems carry the service's codes and the line number.
 */
import type { EmulatorState } from '../state';
import { isBatchDeployment } from '../routes/chat';
import { jsonLines } from './files';
import type { BatchError } from '../stored';

export type { BatchError };

export const MAX_BATCH_LINES = 100_000;
/** The service lists many problems at once; a file full of them is cut here. */
const MAX_ERRORS = 50;

export interface BatchLine {
  line: number;
  customId: string;
  /** `chat` or `responses`: which live route answers it. */
  api: 'chat' | 'responses';
  body: Record<string, unknown>;
}

/** `/chat/completions` (Azure's samples) and `/v1/chat/completions` (the SDK) are one endpoint. */
export function endpointApi(endpoint: unknown): 'chat' | 'responses' | undefined {
  if (typeof endpoint !== 'string') return undefined;
  const path = endpoint.replace(/^\/v1(?=\/)/, '');
  return path === '/chat/completions' ? 'chat' : path === '/responses' ? 'responses' : undefined;
}

export function validateBatchInput(state: EmulatorState, data: Buffer, api: 'chat' | 'responses'): { lines: BatchLine[]; deployment: string } | { errors: BatchError[] } {
  const parsed = jsonLines(data);
  if ('problem' in parsed) return { errors: [{ code: 'invalid_json_line', message: parsed.problem.message, param: null, line: parsed.problem.line }] };
  if (parsed.lines.length === 0) return { errors: [{ code: 'empty_file', message: 'The input file has no requests.', param: null, line: null }] };
  if (parsed.lines.length > MAX_BATCH_LINES) {
    return { errors: [{ code: 'too_many_tasks', message: `The input file has ${parsed.lines.length} requests; a batch takes at most ${MAX_BATCH_LINES}.`, param: null, line: null }] };
  }
  const errors: BatchError[] = [];
  const fail = (code: string, line: number, message: string, param: string | null = null) => errors.length < MAX_ERRORS && errors.push({ code, message: `Line ${line}: ${message}`, param, line });
  const seen = new Set<string>();
  const lines: BatchLine[] = [];
  let deployment: string | undefined;
  for (const { line, value } of parsed.lines) {
    const { custom_id: customId, method, url, body } = value;
    if (typeof customId !== 'string' || !customId) {
      fail('invalid_request', line, "'custom_id' must be a non-empty string.", 'custom_id');
      continue;
    }
    if (seen.has(customId)) fail('duplicate_custom_id', line, `The custom_id '${customId}' appears more than once; each request needs its own.`, 'custom_id');
    seen.add(customId);
    if (method !== 'POST') fail('invalid_request', line, `'method' must be "POST", not ${JSON.stringify(method)}.`, 'method');
    if (endpointApi(url) !== api) fail('url_mismatch', line, `The url ${JSON.stringify(url)} does not match the batch's endpoint (/v1/${api === 'chat' ? 'chat/completions' : 'responses'}).`, 'url');
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      fail('invalid_request', line, "'body' must be a JSON object with the request.", 'body');
      continue;
    }
    const model = (body as Record<string, unknown>).model;
    const d = typeof model === 'string' ? state.deployment(model) : undefined;
    if (!d) fail('model_not_found', line, `The deployment ${JSON.stringify(model)} named in 'body.model' does not exist.`, 'body.model');
    else if (!isBatchDeployment(d)) fail('model_not_found', line, `The deployment '${d.name}' is a ${d.sku} deployment; a batch needs a Global-Batch or Data Zone Batch deployment.`, 'body.model');
    else if (deployment !== undefined && d.name !== deployment)
      fail('model_mismatch', line, `Every request of a batch must name the same deployment: '${d.name}' differs from '${deployment}'.`, 'body.model');
    else deployment = d.name;
    lines.push({ line, customId, api, body: body as Record<string, unknown> });
  }
  if (errors.length > 0 || deployment === undefined) return { errors };
  return { lines, deployment };
}
