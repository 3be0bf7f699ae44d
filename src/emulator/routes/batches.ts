/** Batches on `/openai/v1/batches`: create, retrieve, list (paged) and cancel. */
import type { Route, RouteContext } from '../router';
import { invalidRequest, sendJson } from '../wire';
import { BATCH_FINAL, newBatch, runBatch, type BatchObject } from '../jobs/batches';
import { endpointApi } from '../jobs/batchLines';
import { missing } from '../jobs/files';
import { listPage } from './listing';

/** Metadata as the service takes it: up to 16 string values, keys up to 64 characters, values up to 512. */
export function metadataParam(raw: unknown): Record<string, string> | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest("'metadata' must be an object of string values.", 'metadata', 'invalid_type');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > 16) throw invalidRequest("'metadata' takes at most 16 keys.", 'metadata', 'invalid_value');
  for (const [k, v] of entries) {
    if (typeof v !== 'string' || k.length > 64 || v.length > 512) {
      throw invalidRequest(`Invalid 'metadata.${k.slice(0, 64)}': keys are up to 64 characters and values strings of up to 512.`, 'metadata', 'invalid_value');
    }
  }
  return raw as Record<string, string>;
}

async function create(ctx: RouteContext): Promise<void> {
  const body = await ctx.json();
  const { input_file_id: fileId, endpoint, completion_window: window } = body;
  if (typeof fileId !== 'string' || !fileId) throw invalidRequest("Missing required parameter: 'input_file_id'.", 'input_file_id', 'missing_required_parameter');
  if (!endpointApi(endpoint)) {
    throw invalidRequest(
      `Invalid value for 'endpoint': ${JSON.stringify(endpoint)}. Supported values are: '/v1/chat/completions' and '/v1/responses' (also without '/v1').`,
      'endpoint',
      'invalid_value',
    );
  }
  if (typeof window !== 'string' || !window) throw invalidRequest("Missing required parameter: 'completion_window'. The supported value is '24h'.", 'completion_window', 'missing_required_parameter');
  const metadata = metadataParam(body.metadata);
  const file = ctx.state.files.get(fileId);
  if (!file) throw missing('File', fileId, 'input_file_id');
  if (file.object.purpose !== 'batch') {
    throw invalidRequest(
      `The file ${fileId} was uploaded with purpose '${file.object.purpose}'; a batch needs a file uploaded with purpose 'batch'.`,
      'input_file_id',
      'invalid_value',
    );
  }
  const batch = newBatch(fileId, endpoint as string, window, metadata);
  ctx.state.batches.set(batch.id, batch);
  runBatch(ctx.state, batch).catch((err: unknown) => ctx.state.log(`batch ${batch.id} stopped in the emulator: ${(err as Error)?.stack ?? err}`));
  sendJson(ctx.res, 200, batch, ctx.baseHeaders);
}

function find(ctx: RouteContext, rawId: string): BatchObject {
  const id = decodeURIComponent(rawId);
  const b = ctx.state.batches.get(id);
  if (!b) throw missing('Batch', id, 'batch_id');
  return b;
}

function list(ctx: RouteContext): void {
  const all = [...ctx.state.batches.values()].reverse();
  sendJson(ctx.res, 200, listPage(ctx, all, { defaultLimit: 20, maxLimit: 100 }), ctx.baseHeaders);
}

function cancel(ctx: RouteContext, id: string): void {
  const b = find(ctx, id);
  // Cancelling twice answers the batch as it is; a finished one cannot be cancelled.
  if (BATCH_FINAL.has(b.status) && b.status !== 'cancelled') throw invalidRequest(`Cannot cancel a batch with status '${b.status}'.`, null, 'invalid_state', 409);
  if (b.status !== 'cancelled' && b.status !== 'cancelling') {
    b.status = 'cancelling';
    b.cancelling_at = Math.floor(Date.now() / 1000);
  }
  sendJson(ctx.res, 200, b, ctx.baseHeaders);
}

const BATCHES = '^/openai/v1/batches';
export const batchRoutes: Route[] = [
  { method: 'POST', path: new RegExp(`${BATCHES}$`), handler: create },
  { method: 'GET', path: new RegExp(`${BATCHES}$`), handler: list },
  { method: 'GET', path: new RegExp(`${BATCHES}/([^/]+)$`), handler: (ctx, [id]) => sendJson(ctx.res, 200, find(ctx, id), ctx.baseHeaders) },
  { method: 'POST', path: new RegExp(`${BATCHES}/([^/]+)/cancel$`), handler: (ctx, [id]) => cancel(ctx, id) },
];
