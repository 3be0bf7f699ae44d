/** Create Batch…, Cancel Batch, Open Batch Results and what the results document offers. */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { describeProblems } from '../../jobs/problems';
import type { BatchEndpoint } from '../../service/batches';
import type { ResultRow } from '../../jobs/resultRows';
import { ROWS_PER_PAGE } from '../jobs/resultsDocument';
import type { Batch } from '../../service/jobTypes';
import { loadNetwork } from '../bundles';
import { loadTrace } from '../layerBundles';
import { logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { batchTarget, connectionFor } from '../jobs/jobArgs';
import { BatchNode } from '../tree/jobNodes';
import { argsOf, workspacePath } from './args';
import { confirmed, showJson, uploadWithProgress, withCancellableProgress, withProgress } from './registry';

export interface CreateBatchArgs {
  connectionId?: string;
  /** A JSONL file: a path, or a workspace-relative one. */
  file?: string;
  endpoint?: BatchEndpoint;
  metadata?: Record<string, string>;
}

const ENDPOINTS: BatchEndpoint[] = ['/v1/chat/completions', '/v1/responses'];

async function pickFile(): Promise<string | undefined> {
  const found = await vscode.workspace.findFiles('**/*.jsonl', '**/node_modules/**', 200);
  const browse = { label: `$(folder-opened) ${vscode.l10n.t('Browse…')}`, path: '' };
  const items = [...found.map((u) => ({ label: vscode.workspace.asRelativePath(u), path: u.fsPath })), browse];
  const title = vscode.l10n.t('Create Batch (1/2): the input file');
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('A JSONL file: one request per line') });
  if (pick !== browse) return pick?.path;
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'JSON Lines': ['jsonl'] }, title: vscode.l10n.t('Batch input file') });
  return chosen?.[0]?.fsPath;
}

/** Checks the file locally, uploads it with progress, creates the batch; the upload is deleted if that fails. */
export async function createBatch(s: Services, arg: unknown): Promise<Batch | undefined> {
  const args = argsOf<CreateBatchArgs>(arg) ?? {};
  const conn = await connectionFor(s, arg, vscode.l10n.t('Create a batch on which connection?'));
  if (!conn) return undefined;
  const path = args.file ? workspacePath(args.file) : await pickFile();
  if (!path) return undefined;
  if (!/\.jsonl$/i.test(path)) {
    throw new Error(vscode.l10n.t("{0} is not a JSONL file: a batch's input is one JSON request per line, in a .jsonl file.", basename(path)));
  }
  const endpointPick = { title: vscode.l10n.t('Create Batch (2/2): the API every line calls'), placeHolder: vscode.l10n.t('The url of each line must match') };
  const endpoint = args.endpoint ?? ((await vscode.window.showQuickPick(ENDPOINTS, endpointPick)) as BatchEndpoint | undefined);
  if (!endpoint) return undefined;
  const net = loadNetwork();
  // Traced from here (check, upload, create), then followed until it ends (src/vscode/trace).
  const traced = loadTrace().traceBatch(s.context.globalStorageUri, s.jobs, conn.id);
  const timed = traced.trace.timed.bind(traced.trace);
  const deployments = (await s.clients.listDeployments(conn)).map(net.deploymentInfo);
  const check = await timed('check input', () => withProgress(vscode.l10n.t('Checking {0}…', basename(path)), () => net.checkBatchInput(path, { endpoint, deployments })));
  if (check.problemCount) throw new Error(`${describeProblems(basename(path), check.problems, check.problemCount)} ${vscode.l10n.t('Nothing was uploaded.')}`);
  const client = await s.clients.get(conn);
  const file = await timed('upload input', () => uploadWithProgress(client.jobs.files, path, 'batch'));
  let batch: Batch;
  try {
    const metadata = { name: basename(path), ...args.metadata };
    batch = await timed('create batch', () => client.jobs.batches.create({ input_file_id: file.id, endpoint, metadata }));
  } catch (err) {
    traced.failed(err);
    // Nothing half-made stays behind: the upload goes, unless the batch may exist and need it.
    // (Read by shape: the error class lives in the network bundle.)
    const message = err instanceof Error ? err.message : String(err);
    if ((err as { mayHaveActed?: boolean }).mayHaveActed === true) {
      throw new Error(`${message} ${vscode.l10n.t('The uploaded file {0} was kept, as the batch may use it.', file.id)}`);
    }
    const gone = await client.jobs.files.delete(file.id).then(
      () => vscode.l10n.t('The uploaded file was deleted.'),
      () => vscode.l10n.t('The uploaded file {0} could not be deleted: delete it yourself.', file.id),
    );
    throw new Error(`${message} ${gone}`);
  }
  logInfo(`Batch ${batch.id} created on ${conn.label} from ${basename(path)} (${check.requests} requests).`);
  traced.follow(batch);
  s.jobs.upsert(conn.id, 'batches', batch);
  void vscode.window.showInformationMessage(plainLine(vscode.l10n.t('Batch {0} created: {1} requests on {2}.', batch.id, check.requests, String(check.deployment)), 1000));
  return batch;
}

export async function cancelBatch(s: Services, arg: unknown): Promise<Batch | undefined> {
  const { conn, batchId } = batchTarget(s, arg);
  if (!argsOf(arg)) {
    const question = vscode.l10n.t('Cancel batch {0}? Requests that already finished are kept (and billed).', batchId);
    if (!(await confirmed(question, vscode.l10n.t('Cancel Batch')))) return undefined;
  }
  const client = await s.clients.get(conn);
  const current = await client.jobs.batches.retrieve(batchId);
  if (['completed', 'failed', 'expired', 'cancelled'].includes(current.status)) {
    throw new Error(vscode.l10n.t('The batch {0} already ended ({1}): there is nothing to cancel.', batchId, current.status));
  }
  const batch = await client.jobs.batches.cancel(batchId);
  s.jobs.upsert(conn.id, 'batches', batch);
  return batch;
}

/** Downloads a finished batch's files into storage (once) and opens them as a table. */
export async function openBatchResults(s: Services, arg: unknown): Promise<vscode.TextDocument | undefined> {
  const { conn, batchId } = batchTarget(s, arg);
  const client = await s.clients.get(conn);
  const batch = await client.jobs.batches.retrieve(batchId);
  if (!batch.output_file_id && !batch.error_file_id) {
    throw new Error(vscode.l10n.t('The batch {0} has no results yet ({1}): they come when it completes, expires or is cancelled.', batchId, batch.status));
  }
  const onProgress = (report: (m: string) => void) => (n: number) => report(vscode.l10n.t('{0} MB', (n / 1024 / 1024).toFixed(1)));
  const files = await withCancellableProgress(vscode.l10n.t('Downloading the results of {0}', batchId), (signal, report) =>
    loadNetwork().downloadResults(client.jobs.files, batch, s.results.storageFor(conn.id), { signal, onProgress: onProgress(report) }),
  );
  s.results.open(conn.id, batchId, files);
  // Its usage goes into the usage log (once per batch, however often the results are opened).
  void s.usage.recordBatch(conn.id, batch, files);
  const doc = await vscode.workspace.openTextDocument(s.results.uri(conn.id, batchId));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

function activeResults(s: Services, arg: unknown) {
  const args = argsOf<{ connectionId?: string; batchId?: string }>(arg, 'batchId');
  const where = args?.batchId
    ? { connectionId: batchTarget(s, args).conn.id, batchId: args.batchId, page: 0 }
    : vscode.window.activeTextEditor && s.results.parse(vscode.window.activeTextEditor.document.uri);
  if (!where) throw new Error(vscode.l10n.t("Open a batch's results first (Open Batch Results on a finished batch in the sidebar)."));
  const results = s.results.results(where.connectionId, where.batchId);
  if (!results) throw new Error(vscode.l10n.t('The results of {0} are not open: open them first (Open Batch Results).', where.batchId));
  return { ...where, results };
}

export async function turnResultsPage(s: Services, step: 1 | -1): Promise<void> {
  const { connectionId, batchId, page, results } = activeResults(s, undefined);
  const last = results.complete ? Math.max(0, Math.ceil(results.count / ROWS_PER_PAGE) - 1) : Number.MAX_SAFE_INTEGER;
  const next = Math.min(Math.max(0, page + step), last);
  if (next === page) return;
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(s.results.uri(connectionId, batchId, next)), { preview: true });
}

/** One row in full: the response (or error) and, from the input file, the request it answers. */
export async function openBatchResultLine(s: Services, arg: unknown): Promise<Record<string, unknown> | undefined> {
  const { connectionId, batchId, page, results } = activeResults(s, arg);
  const args = argsOf<{ index?: number; customId?: string }>(arg) ?? {};
  let index = args.index;
  if (index === undefined && args.customId === undefined) {
    const rows = await results.page(page * ROWS_PER_PAGE, ROWS_PER_PAGE);
    const pick = await vscode.window.showQuickPick(
      // custom_id is the input file's, the reply the model's: as text, one line each.
      rows.map((r) => ({ label: r.customId ? plainLine(r.customId) : vscode.l10n.t('row {0}', r.index + 1), description: plainLine(r.error ? `✗ ${r.error}` : r.reply), index: r.index })),
      { title: vscode.l10n.t('A result of {0}', batchId), placeHolder: vscode.l10n.t('Type a custom_id'), matchOnDescription: true },
    );
    if (!pick) return undefined;
    index = pick.index;
  }
  if (index === undefined) {
    const total = await results.total();
    for (let from = 0; from < total && index === undefined; from += ROWS_PER_PAGE) {
      index = (await results.page(from, ROWS_PER_PAGE)).find((r: ResultRow) => r.customId === args.customId)?.index;
    }
    if (index === undefined) throw new Error(vscode.l10n.t('No result of {0} has the custom_id "{1}".', batchId, String(args.customId)));
  }
  const line = await results.line(index);
  if (!line) throw new Error(vscode.l10n.t('The results of {0} have no row {1}.', batchId, index + 1));
  const conn = s.store.get(connectionId);
  const request = conn ? await requestOf(s, conn, batchId, String(line.custom_id ?? '')).catch(() => undefined) : undefined;
  const gone = vscode.l10n.t('(the input file is no longer on the service)');
  const shown = { custom_id: line.custom_id, request: request ?? gone, response: line.response ?? null, error: line.error ?? null };
  await showJson(shown);
  return shown;
}

async function requestOf(s: Services, conn: Parameters<Services['clients']['get']>[0], batchId: string, customId: string) {
  return loadNetwork().requestOfLine((await s.clients.get(conn)).jobs, batchId, customId, s.results.storageFor(conn.id));
}

export interface ExportResultsArgs {
  connectionId?: string;
  batchId?: string;
  format?: 'jsonl' | 'csv';
  /** Where to write; a save dialog asks when absent. */
  path?: string;
}

export async function exportBatchResults(s: Services, arg: unknown): Promise<string | undefined> {
  const args = argsOf<ExportResultsArgs>(arg) ?? {};
  const target = arg instanceof BatchNode ? { connectionId: arg.connection.id, batchId: arg.batch.id } : args.batchId ? args : undefined;
  // From the sidebar or with arguments: the results are downloaded and opened first if they are not.
  if (target && !s.results.results(batchTarget(s, target).conn.id, target.batchId!)) await openBatchResults(s, target);
  const { batchId, results } = activeResults(s, target);
  const placeHolder = vscode.l10n.t('CSV: the table; JSONL: every line as the service wrote it');
  const format = args.format ?? (await vscode.window.showQuickPick(['csv', 'jsonl'] as const, { title: vscode.l10n.t('Export the results of {0}', batchId), placeHolder }));
  if (!format) return undefined;
  const dest = args.path ?? (await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(`${batchId}-results.${format}`), filters: { [format.toUpperCase()]: [format] } }))?.fsPath;
  if (!dest) return undefined;
  const exporting = vscode.l10n.t('Exporting the results of {0}…', batchId);
  await withProgress(exporting, () => (format === 'csv' ? results.exportCsv(dest).then(() => undefined) : results.exportJsonl(dest)));
  void vscode.window.showInformationMessage(plainLine(vscode.l10n.t('Exported the results of {0} to {1}.', batchId, basename(dest)), 1000));
  return dest;
}
