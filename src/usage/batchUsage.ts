/**
 * A batch's usage, read from its downloaded output and error files: every line the service ran
 * counts once, with its tokens (either API's usage shape), its model and how it ended, priced
 * later at the batch discount (source 'batch'). The service says nothing of how long a line took:
 * the records leave the times out (unknown), never 0. Lines of one minute, model and outcome are
 * kept as one record that counts them, so a 100,000-line batch does not push a month of chats out
 * of the log's caps. Nothing of a prompt or a reply is read beyond the usage and the model.
 */
import { mkdir, open } from 'node:fs/promises';
import { eachLine, parseObject } from '../jobs/lines';
import { asObj, type Obj } from '../service/shapes';
import { storedIdPath } from '../storage/storedId';
import { createUsageRecord, tokensFromServiceUsage, type UsageApi, type UsageOutcome, type UsageRecord, type UsageTokens } from './record';

/** What the records need of the batch (a `Batch` of the service fits). */
export interface BatchForUsage {
  id: string;
  endpoint?: string | null;
  /** The deployment the batch ran on, when the service says it. */
  model?: string | null;
  created_at?: number | null;
  in_progress_at?: number | null;
  completed_at?: number | null;
  expired_at?: number | null;
  cancelled_at?: number | null;
}

export interface BatchUsageOptions {
  connectionId: string;
  connectionLabel: string;
  /** The deployment's name when the batch does not say it (then the line's model names it). */
  deployment?: string;
  now?: () => number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const seconds = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v * 1000 : undefined);

const MINUTE_MS = 60_000;

/** How a line ended: its HTTP status decides, a content filter and a 429 are told apart. */
export function lineOutcome(status: number | undefined, errorCode: string | undefined): UsageOutcome {
  if (status !== undefined && status >= 200 && status < 300 && !errorCode) return { kind: 'ok' };
  if (status === 429) return { kind: 'rate_limited' };
  if (errorCode === 'content_filter' || errorCode === 'ResponsibleAIPolicyViolation') return { kind: 'content_filter' };
  return { kind: 'error', status };
}

interface Group {
  at: number;
  model?: string;
  api: UsageApi;
  outcome: UsageOutcome;
  requests: number;
  tokens: UsageTokens;
}

/**
 * The usage records of a batch's result files (output, then error). A line that never ran (the
 * batch expired before it: `batch_expired`) is not a request and is not counted; a line that is
 * not JSON is skipped.
 */
export async function batchUsageRecords(files: { output?: string; error?: string }, batch: BatchForUsage, options: BatchUsageOptions): Promise<UsageRecord[]> {
  // A line without its own time (a failure) counts when the batch ended.
  const ended = seconds(batch.completed_at) ?? seconds(batch.expired_at) ?? seconds(batch.cancelled_at);
  const fallbackAt = ended ?? seconds(batch.in_progress_at) ?? seconds(batch.created_at) ?? (options.now ?? Date.now)();
  const endpointApi: UsageApi = batch.endpoint?.includes('responses') ? 'responses' : 'chat';
  const groups = new Map<string, Group>();
  const add = (line: Obj) => {
    const response = asObj(line.response);
    const error = asObj(line.error);
    if (!response && text(error?.code) === 'batch_expired') return;
    const body = asObj(response?.body);
    const status = typeof response?.status_code === 'number' ? response.status_code : undefined;
    const outcome = lineOutcome(status, text(error?.code) ?? text(asObj(body?.error)?.code));
    const api: UsageApi = body?.object === 'response' ? 'responses' : body?.object === 'chat.completion' ? 'chat' : endpointApi;
    const model = text(body?.model);
    const at = Math.floor((seconds(body?.created) ?? seconds(body?.created_at) ?? fallbackAt) / MINUTE_MS) * MINUTE_MS;
    const key = JSON.stringify([at, model, api, outcome]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { at, model, api, outcome, requests: 0, tokens: { prompt: 0, cached: 0, completion: 0, reasoning: 0 } }));
    g.requests++;
    const t = tokensFromServiceUsage(body?.usage);
    g.tokens.prompt += t.prompt ?? 0;
    g.tokens.cached += t.cached ?? 0;
    g.tokens.completion += t.completion ?? 0;
    g.tokens.reasoning += t.reasoning ?? 0;
  };
  for (const path of [files.output, files.error]) {
    if (!path) continue;
    await eachLine(path, ({ bytes }) => {
      const parsed = parseObject(bytes);
      if ('value' in parsed) add(parsed.value);
    });
  }
  // The model of the lines that had one names the deployment's model for those that did not (a failure).
  const models = new Set([...groups.values()].map((g) => g.model).filter((m) => m !== undefined));
  const onlyModel = models.size === 1 ? [...models][0] : undefined;
  return [...groups.values()]
    .sort((a, b) => a.at - b.at)
    .map((g) =>
      createUsageRecord({
        at: g.at,
        connectionId: options.connectionId,
        connectionLabel: options.connectionLabel,
        // Stryker disable next-line StringLiteral: an empty name is recorded as '?' too
        deployment: text(batch.model) ?? options.deployment ?? g.model ?? onlyModel ?? '?',
        model: g.model ?? onlyModel,
        api: g.api,
        // Stryker disable next-line StringLiteral: an empty route is recorded as 'v1' too
        route: 'v1',
        source: 'batch',
        requests: g.requests,
        tokens: g.tokens,
        outcome: g.outcome,
      }),
    );
}

/**
 * Claims `key` once for every window and every reload: the first caller creates its marker file
 * (exclusively: two windows cannot both succeed) and gets true; every later one gets false.
 */
export async function claimOnce(dir: string, key: string): Promise<boolean> {
  const marker = storedIdPath(dir, key);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const handle = await open(marker, 'wx', 0o600);
    await handle.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}
