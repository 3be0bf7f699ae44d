/**
 * One deployment through Resource Manager: GET, PUT (create or update: how a fine-tuned model is
 * deployed) and DELETE on `…/accounts/{account}/deployments/{name}`. A new deployment is `Accepted`
 * for one job step, then `Succeeded`, and from then on answers like any other.
 */
import type { DeploymentConfig } from '../config';
import type { Route, RouteContext } from '../router';
import { azureError, sendJson } from '../wire';
import { ACCOUNT, accountDeployments, armApiVersion, armDeployment, findAccount } from './catalog';

const DEPLOYMENT = new RegExp(`${ACCOUNT}/deployments/([^/]+)$`, 'i');
const invalid = (message: string) => azureError(400, 'InvalidResourceProperties', message);

function target(ctx: RouteContext, [subId, rg, account, rawName]: string[]) {
  armApiVersion(ctx);
  const found = findAccount(ctx, subId, rg, account);
  const name = decodeURIComponent(rawName);
  const existing = accountDeployments(ctx, found.account).find((d) => d.name === name);
  return { ...found, name, existing };
}

/** The model a PUT names, resolved: a base model, a fine-tuned model of a job that succeeded, or one of its checkpoints. */
function resolveModel(ctx: RouteContext, name: string): string {
  const jobs = [...ctx.state.fineTuning.values()];
  const checkpoint = jobs.flatMap((s) => s.checkpoints).find((c) => c.id === name || c.fine_tuned_model_checkpoint === name);
  if (checkpoint) return checkpoint.fine_tuned_model_checkpoint;
  if (/\.ft-|^ftchkpt-|:ckpt-step-/.test(name)) {
    if (jobs.some((s) => s.job.status === 'succeeded' && s.job.fine_tuned_model === name)) return name;
    throw azureError(
      400,
      'DeploymentModelNotSupported',
      `The model '${name}' is not a fine-tuned model of this resource (or its fine-tuning job has not succeeded). Check the name in the job's fine_tuned_model.`,
    );
  }
  return name;
}

async function put(ctx: RouteContext, params: string[]): Promise<void> {
  const { sub, account, name, existing } = target(ctx, params);
  if (!/^(OpenAI|AIServices)$/i.test(account.kind)) throw azureError(400, 'OperationNotSupported', `The account '${account.name}' (kind ${account.kind}) cannot hold model deployments.`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/.test(name)) throw azureError(400, 'InvalidResourceName', `The deployment name '${name}' is not valid: use 2 to 64 letters, digits, '.', '-' or '_'.`);
  const body = await ctx.json();
  const sku = (body.sku ?? {}) as { name?: unknown; capacity?: unknown };
  const model = ((body.properties ?? {}) as { model?: { format?: unknown; name?: unknown; version?: unknown } }).model ?? {};
  if (typeof sku.name !== 'string' || !sku.name) throw invalid("The deployment needs 'sku.name' (e.g. Standard, GlobalStandard, GlobalBatch).");
  const capacity = sku.capacity ?? 1;
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 1) throw invalid("'sku.capacity' must be a positive integer.");
  if (typeof model.name !== 'string' || !model.name) throw invalid("The deployment needs 'properties.model.name'.");
  if (model.format !== undefined && model.format !== 'OpenAI') throw invalid(`The model format '${String(model.format)}' is not supported on this account; use 'OpenAI'.`);
  const resolved = resolveModel(ctx, model.name);
  // A capacity unit is 1,000 tokens and 6 requests per minute, as on Standard deployments.
  const next: DeploymentConfig = {
    name,
    model: resolved,
    version: typeof model.version === 'string' && model.version ? model.version : '1',
    sku: sku.name,
    capacity,
    requestsPerMinute: capacity * 6,
    tokensPerMinute: capacity * 1000,
  };
  const all = ctx.state.config.deployments;
  if (existing) {
    Object.assign(existing, next, { provisioningState: existing.provisioningState });
    return sendJson(ctx.res, 200, armDeployment(sub, account, existing), ctx.baseHeaders);
  }
  next.provisioningState = 'Accepted';
  all.push(next);
  account.deployments?.push(name);
  ctx.state.later(ctx.state.config.jobs.stepMs, () => {
    next.provisioningState = 'Succeeded';
  });
  sendJson(ctx.res, 201, armDeployment(sub, account, next), ctx.baseHeaders);
}

function remove(ctx: RouteContext, params: string[]): void {
  const { account, existing } = target(ctx, params);
  if (!existing) {
    ctx.res.writeHead(204, ctx.baseHeaders).end();
    return;
  }
  const all = ctx.state.config.deployments;
  all.splice(all.indexOf(existing), 1);
  if (account.deployments) account.deployments = account.deployments.filter((n) => n !== existing.name);
  ctx.res.writeHead(200, ctx.baseHeaders).end();
}

function get(ctx: RouteContext, params: string[]): void {
  const { sub, account, name, existing } = target(ctx, params);
  if (!existing) throw azureError(404, 'DeploymentNotFound', `Deployment '${name}' not found on account '${account.name}'.`);
  sendJson(ctx.res, 200, armDeployment(sub, account, existing), ctx.baseHeaders);
}

export const armDeploymentRoutes: Route[] = [
  { method: 'GET', path: DEPLOYMENT, handler: get },
  { method: 'PUT', path: DEPLOYMENT, handler: put },
  { method: 'DELETE', path: DEPLOYMENT, handler: remove },
];
