/** Fine-tuning on `/openai/v1/fine_tuning/jobs`: create, retrieve, list, events, checkpoints, cancel, pause, resume. */
import type { Route, RouteContext } from '../router';
import { invalidRequest, randomId, sendJson, nowSeconds } from '../wire';
import { missing } from '../jobs/files';
import { JOB_FINAL, cancelJob, logEvent, runJob, type FineTuningJob, type StoredJob } from '../jobs/fineTune';
import { TUNABLE_MODELS, methodsOf, type Method } from '../jobs/fineTuneData';
import { metadataParam } from './batches';
import { listPage } from './listing';

/** Each hyperparameter is "auto" or a number in the service's range. */
const HYPER_RANGES: Record<string, [number, number, boolean]> = {
  n_epochs: [1, 50, true],
  batch_size: [1, 256, true],
  learning_rate_multiplier: [0.000001, 10, false],
  beta: [0.000001, 2, false],
};

function hyperparameters(raw: unknown, where: string): Record<string, number | 'auto'> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest(`'${where}' must be an object.`, where, 'invalid_type');
  const out: Record<string, number | 'auto'> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const range = HYPER_RANGES[k];
    if (!range) continue;
    const [min, max, integer] = range;
    if (v !== 'auto' && !(typeof v === 'number' && v >= min && v <= max && (!integer || Number.isInteger(v)))) {
      throw invalidRequest(`Invalid '${where}.${k}': expected "auto" or ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, but got ${JSON.stringify(v)}.`, `${where}.${k}`, 'invalid_value');
    }
    out[k] = v as number | 'auto';
  }
  return out;
}

function fileParam(ctx: RouteContext, body: Record<string, unknown>, param: 'training_file' | 'validation_file'): string | null {
  const id = body[param];
  if (id === undefined || id === null) {
    if (param === 'training_file') throw invalidRequest("Missing required parameter: 'training_file'.", param, 'missing_required_parameter');
    return null;
  }
  if (typeof id !== 'string' || !id) throw invalidRequest(`'${param}' must be a file id.`, param, 'invalid_type');
  const file = ctx.state.files.get(id);
  if (!file) throw missing('File', id, param);
  if (file.object.purpose !== 'fine-tune') throw invalidRequest(`The file ${id} was uploaded with purpose '${file.object.purpose}'; fine-tuning needs purpose 'fine-tune'.`, param, 'invalid_value');
  return id;
}

async function create(ctx: RouteContext): Promise<void> {
  const body = await ctx.json();
  const model = body.model;
  if (typeof model !== 'string' || !model) throw invalidRequest("Missing required parameter: 'model' (a base model with its version, e.g. gpt-4.1-2025-04-14).", 'model', 'missing_required_parameter');
  const methods = methodsOf(ctx.state, model);
  if (!methods) throw invalidRequest(`The model '${model}' cannot be fine-tuned. Models that can: ${TUNABLE_MODELS.join(', ')}, or a model fine-tuned from one of them.`, 'model', 'invalid_value');
  const training = fileParam(ctx, body, 'training_file');
  const validation = fileParam(ctx, body, 'validation_file');
  const suffix = body.suffix ?? null;
  if (suffix !== null && (typeof suffix !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(suffix))) {
    throw invalidRequest("Invalid 'suffix': up to 64 letters, digits, '-' or '_'.", 'suffix', 'invalid_value');
  }
  const rawMethod = (body.method ?? { type: 'supervised' }) as Record<string, unknown>;
  const type = rawMethod.type as Method;
  if (!methods.includes(type)) throw invalidRequest(`The method ${JSON.stringify(rawMethod.type)} is not available for ${model}. Available: ${methods.join(', ')}.`, 'method.type', 'invalid_value');
  const settings = (rawMethod[type] ?? {}) as Record<string, unknown>;
  const hyper = {
    batch_size: 'auto' as const,
    learning_rate_multiplier: 'auto' as const,
    n_epochs: 'auto' as const,
    ...hyperparameters(body.hyperparameters, 'hyperparameters'),
    ...hyperparameters(settings.hyperparameters, `method.${type}.hyperparameters`),
  };
  if (body.seed !== undefined && body.seed !== null && !Number.isInteger(body.seed)) throw invalidRequest("'seed' must be an integer.", 'seed', 'invalid_type');
  const job: FineTuningJob = {
    id: randomId('ftjob-', 16),
    object: 'fine_tuning.job',
    model,
    created_at: nowSeconds(),
    finished_at: null,
    estimated_finish: null,
    fine_tuned_model: null,
    error: null,
    organization_id: 'org-emulator',
    training_file: training!,
    validation_file: validation,
    result_files: [],
    trained_tokens: null,
    seed: typeof body.seed === 'number' ? body.seed : Math.floor(Math.random() * 2 ** 31),
    status: 'validating_files',
    hyperparameters: hyper,
    method: { type, [type]: { ...settings, hyperparameters: hyper } },
    integrations: Array.isArray(body.integrations) ? body.integrations : null,
    metadata: metadataParam(body.metadata),
    suffix: suffix as string | null,
    user_provided_suffix: suffix as string | null,
  };
  const stored: StoredJob = { job, events: [], checkpoints: [] };
  ctx.state.fineTuning.set(job.id, stored);
  logEvent(stored, `Created fine-tuning job: ${job.id}`);
  runJob(ctx.state, stored).catch((err: unknown) => ctx.state.log(`fine-tuning job ${job.id} stopped in the emulator: ${(err as Error)?.stack ?? err}`));
  sendJson(ctx.res, 200, job, ctx.baseHeaders);
}

function find(ctx: RouteContext, rawId: string): StoredJob {
  const id = decodeURIComponent(rawId);
  const s = ctx.state.fineTuning.get(id);
  if (!s) throw missing('Fine-tuning job', id, 'fine_tuning_job_id');
  return s;
}

const conflict = (job: FineTuningJob, action: string, need: string) => invalidRequest(`Cannot ${action} a job with status '${job.status}'${need}.`, null, 'invalid_state', 409);

function control(ctx: RouteContext, id: string, action: 'cancel' | 'pause' | 'resume'): void {
  const stored = find(ctx, id);
  const { job } = stored;
  if (action === 'cancel') {
    if (job.status === 'cancelled') return sendJson(ctx.res, 200, job, ctx.baseHeaders);
    if (JOB_FINAL.has(job.status)) throw conflict(job, 'cancel', ': it has already finished');
    cancelJob(ctx.state, stored);
  } else if (action === 'pause') {
    if (job.status !== 'running') throw conflict(job, 'pause', ': only a running job can be paused');
    job.status = 'paused';
    logEvent(stored, 'The job was paused.');
  } else {
    if (job.status !== 'paused') throw conflict(job, 'resume', ': only a paused job can be resumed');
    job.status = 'running';
    logEvent(stored, 'The job was resumed.');
  }
  sendJson(ctx.res, 200, job, ctx.baseHeaders);
}

const JOBS = '^/openai/v1/fine_tuning/jobs';
const newestFirst = <T>(items: T[]) => [...items].reverse();
export const fineTuningRoutes: Route[] = [
  { method: 'POST', path: new RegExp(`${JOBS}$`), handler: create },
  {
    method: 'GET',
    path: new RegExp(`${JOBS}$`),
    handler: (ctx) => {
      const jobs = newestFirst([...ctx.state.fineTuning.values()].map((s) => s.job));
      sendJson(ctx.res, 200, listPage(ctx, jobs, { defaultLimit: 20, maxLimit: 100 }), ctx.baseHeaders);
    },
  },
  { method: 'GET', path: new RegExp(`${JOBS}/([^/]+)$`), handler: (ctx, [id]) => sendJson(ctx.res, 200, find(ctx, id).job, ctx.baseHeaders) },
  {
    method: 'GET',
    path: new RegExp(`${JOBS}/([^/]+)/events$`),
    handler: (ctx, [id]) => sendJson(ctx.res, 200, listPage(ctx, newestFirst(find(ctx, id).events), { defaultLimit: 20, maxLimit: 100 }), ctx.baseHeaders),
  },
  {
    method: 'GET',
    path: new RegExp(`${JOBS}/([^/]+)/checkpoints$`),
    handler: (ctx, [id]) => sendJson(ctx.res, 200, listPage(ctx, newestFirst(find(ctx, id).checkpoints), { defaultLimit: 10, maxLimit: 100 }), ctx.baseHeaders),
  },
  { method: 'POST', path: new RegExp(`${JOBS}/([^/]+)/cancel$`), handler: (ctx, [id]) => control(ctx, id, 'cancel') },
  { method: 'POST', path: new RegExp(`${JOBS}/([^/]+)/pause$`), handler: (ctx, [id]) => control(ctx, id, 'pause') },
  { method: 'POST', path: new RegExp(`${JOBS}/([^/]+)/resume$`), handler: (ctx, [id]) => control(ctx, id, 'resume') },
];
