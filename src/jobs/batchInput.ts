/**
 * Checks a batch input file before anything is uploaded, with the service's rules: every line a
 * JSON request with a unique `custom_id`, `method` POST, the batch's `url`, and one batch
 * deployment as `body.model`. The file is streamed: only the ids are held.
 */
import * as l10n from '@vscode/l10n';
import { stat } from 'node:fs/promises';
import type { Deployment } from '../service/types';
import { eachLine, isBlank, parseObject } from './lines';
import { Problems, type LineProblem } from './problems';

export const MAX_BATCH_REQUESTS = 100_000;
export const MAX_BATCH_FILE_BYTES = 200 * 1024 * 1024;

export type BatchApi = 'chat' | 'responses';

export interface DeploymentInfo {
  name: string;
  /** The SKU (GlobalBatch, Standard, …) when known: only Resource Manager tells it. */
  sku?: string;
}

/** What the check can rely on: the data plane's `scale_type` is no SKU, so it is left out. */
export function deploymentInfo(d: Deployment): DeploymentInfo {
  return d.source === 'arm' ? { name: d.name, sku: d.sku } : { name: d.name };
}

export interface BatchInputCheck {
  /** Requests in the file (non-blank lines). */
  requests: number;
  /** The deployment every line names (when they agree). */
  deployment?: string;
  problems: LineProblem[];
  /** All problems, counting those not kept in `problems`. */
  problemCount: number;
}

/** `/v1/chat/completions` and `/chat/completions` alike; undefined for anything a batch cannot run. */
export function batchApi(url: unknown): BatchApi | undefined {
  if (typeof url !== 'string') return undefined;
  const path = url.trim().replace(/^\/v1(?=\/)/, '');
  if (path === '/chat/completions') return 'chat';
  if (path === '/responses') return 'responses';
  return undefined;
}

/** Global-Batch and Data Zone Batch deployments, however the SKU is spelled. */
export function isBatchSku(sku: string | undefined): boolean {
  // Stryker disable next-line StringLiteral: no SKU and any stand-in for it end alike: not in "batch"
  const spelled = sku ?? '';
  return /batch$/i.test(spelled.replace(/[\s_-]/g, ''));
}

export interface BatchInputOptions {
  /** The batch's endpoint: every line's `url` must match it. */
  endpoint: string;
  /** The connection's deployments, when known: `body.model` must be one of batch type. */
  deployments?: DeploymentInfo[];
  signal?: AbortSignal;
}

export async function checkBatchInput(path: string, options: BatchInputOptions): Promise<BatchInputCheck> {
  const problems = new Problems();
  const api = batchApi(options.endpoint);
  if (!api) throw new Error(l10n.t('"{0}" is not an endpoint a batch can run: use {1} or {2}.', options.endpoint, '/v1/chat/completions', '/v1/responses'));
  const size = (await stat(path)).size;
  if (size > MAX_BATCH_FILE_BYTES) {
    // Not read at all: the service would refuse it whatever its lines say.
    problems.add(0, `the file is ${Math.ceil(size / 1024 / 1024)} MB; a batch input file may be at most 200 MB: split it into several batches`);
    return { requests: 0, problems: problems.list, problemCount: problems.count };
  }
  const byName = new Map((options.deployments ?? []).map((d) => [d.name, d]));
  const seen = new Map<string, number>();
  let requests = 0;
  let deployment: { name: string; line: number } | undefined;
  await eachLine(
    path,
    ({ bytes, number }) => {
      if (number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        problems.add(1, 'the file starts with a byte order mark (BOM), which batch validation refuses: save it as UTF-8 without BOM');
        bytes = bytes.subarray(3);
      }
      if (isBlank(bytes)) return;
      requests++;
      const parsed = parseObject(bytes);
      if ('problem' in parsed) return problems.add(number, `it ${parsed.problem}`);
      const { custom_id: id, method, url, body } = parsed.value;
      if (typeof id !== 'string' || !id) problems.add(number, 'it has no "custom_id" (a string that names the request in the results)');
      else if (seen.has(id)) problems.add(number, `the custom_id "${id.slice(0, 100)}" is already used on line ${seen.get(id)}`);
      else seen.set(id, number);
      if (method !== 'POST') problems.add(number, `"method" must be "POST" (got ${JSON.stringify(method ?? null).slice(0, 40)})`);
      if (batchApi(url) !== api) {
        problems.add(number, `"url" is ${JSON.stringify(url ?? null).slice(0, 80)}, but this batch runs ${options.endpoint}: every line must use the batch's endpoint`);
      }
      const model = body && typeof body === 'object' && !Array.isArray(body) ? (body as { model?: unknown }).model : undefined;
      if (typeof model !== 'string' || !model) return problems.add(number, 'its "body" has no "model" (the name of a batch deployment)');
      if (deployment && deployment.name !== model) {
        return problems.add(number, `it names the deployment "${model.slice(0, 100)}", but line ${deployment.line} names "${deployment.name}": a batch runs on one deployment`);
      }
      if (!deployment) {
        deployment = { name: model, line: number };
        const known = byName.get(model);
        if (options.deployments && !known) problems.add(number, `there is no deployment named "${model.slice(0, 100)}" on this connection`);
        else if (known?.sku !== undefined && !isBatchSku(known.sku)) {
          problems.add(number, `the deployment "${model}" is ${known.sku}; batches run on a Global-Batch or Data Zone Batch deployment`);
        }
      }
    },
    { signal: options.signal },
  );
  if (requests === 0) problems.add(0, 'the file has no requests (one JSON request per line)');
  if (requests > MAX_BATCH_REQUESTS) problems.add(0, `the file has ${requests} requests; a batch takes at most ${MAX_BATCH_REQUESTS}: split it`);
  return { requests, deployment: deployment?.name, problems: problems.list, problemCount: problems.count };
}
