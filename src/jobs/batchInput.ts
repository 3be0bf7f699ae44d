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
    problems.add(0, l10n.t('the file is {0} MB; a batch input file may be at most {1} MB: split it into several batches', Math.ceil(size / 1024 / 1024), 200));
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
        problems.add(1, l10n.t('the file starts with a byte order mark (BOM), which batch validation refuses: save it as UTF-8 without BOM'));
        bytes = bytes.subarray(3);
      }
      if (isBlank(bytes)) return;
      requests++;
      const parsed = parseObject(bytes);
      if ('problem' in parsed) return problems.add(number, parsed.problem);
      const { custom_id: id, method, url, body } = parsed.value;
      if (typeof id !== 'string' || !id) problems.add(number, l10n.t('it has no "{0}" (a string that names the request in the results)', 'custom_id'));
      else if (seen.has(id)) problems.add(number, l10n.t('the {0} "{1}" is already used on line {2}', 'custom_id', id.slice(0, 100), seen.get(id)!));
      else seen.set(id, number);
      if (method !== 'POST') problems.add(number, l10n.t('"{0}" must be "{1}" (got {2})', 'method', 'POST', JSON.stringify(method ?? null).slice(0, 40)));
      if (batchApi(url) !== api) {
        problems.add(number, l10n.t("\"{0}\" is {1}, but this batch runs {2}: every line must use the batch's endpoint", 'url', JSON.stringify(url ?? null).slice(0, 80), options.endpoint));
      }
      const model = body && typeof body === 'object' && !Array.isArray(body) ? (body as { model?: unknown }).model : undefined;
      if (typeof model !== 'string' || !model) return problems.add(number, l10n.t('its "{0}" has no "{1}" (the name of a batch deployment)', 'body', 'model'));
      if (deployment && deployment.name !== model) {
        return problems.add(number, l10n.t('it names the deployment "{0}", but line {1} names "{2}": a batch runs on one deployment', model.slice(0, 100), deployment.line, deployment.name));
      }
      if (!deployment) {
        deployment = { name: model, line: number };
        const known = byName.get(model);
        if (options.deployments && !known) problems.add(number, l10n.t('there is no deployment named "{0}" on this connection', model.slice(0, 100)));
        else if (known?.sku !== undefined && !isBatchSku(known.sku)) {
          problems.add(number, l10n.t('the deployment "{0}" is {1}; batches run on a Global-Batch or Data Zone Batch deployment', model, known.sku));
        }
      }
    },
    { signal: options.signal },
  );
  if (requests === 0) problems.add(0, l10n.t('the file has no requests (one JSON request per line)'));
  if (requests > MAX_BATCH_REQUESTS) problems.add(0, l10n.t('the file has {0} requests; a batch takes at most {1}: split it', requests, MAX_BATCH_REQUESTS));
  return { requests, deployment: deployment?.name, problems: problems.list, problemCount: problems.count };
}
