/**
 * A batch's results as a read-only document: a text table, one page of rows at a time, read
 * through the line index (src/jobs/batchResults.ts) so a 50,000-line batch opens at once. The
 * contents are the model's and the service's: shown as plain text, control characters removed.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { BatchResults, ResultFiles } from '../../jobs/batchResults';
import type { ResultRow } from '../../jobs/resultRows';
import { loadNetwork } from '../bundles';
import { groupDigits } from '../../text/format';

export const RESULTS_SCHEME = 'aoai-batch-results';
export const ROWS_PER_PAGE = 1000;

interface Opened {
  results: BatchResults;
  connectionId: string;
  batchId: string;
}

const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ');
const cell = (s: string, width: number) => {
  const t = clean(s);
  return t.length > width ? `${t.slice(0, width - 1)}…` : t.padEnd(width);
};

function rowLine(r: ResultRow): string {
  const tokens = r.inputTokens !== undefined || r.outputTokens !== undefined ? `${r.inputTokens ?? '?'}/${r.outputTokens ?? '?'}` : '';
  const status = r.statusCode !== undefined ? String(r.statusCode) : r.ok ? 'ok' : 'error';
  return `${String(r.index + 1).padStart(6)}  ${cell(r.customId, 24)}  ${cell(status, 6)}  ${cell(tokens, 11)}  ${clean(r.error ? `✗ ${r.error}` : r.reply)}`;
}

export class ResultsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly opened = new Map<string, Opened>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly storageDir: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESULTS_SCHEME, this);
  }

  /** Where a connection's batch results are downloaded (one folder per connection, by a hash of its id). */
  storageFor(connectionId: string): string {
    return join(this.storageDir, 'batch-results', createHash('sha256').update(connectionId).digest('hex').slice(0, 16));
  }

  uri(connectionId: string, batchId: string, page = 0): vscode.Uri {
    return vscode.Uri.from({ scheme: RESULTS_SCHEME, path: `/${batchId} results`, query: new URLSearchParams({ c: connectionId, b: batchId, page: String(page) }).toString() });
  }

  /** What a results document shows, from its URI. */
  parse(uri: vscode.Uri): { connectionId: string; batchId: string; page: number } | undefined {
    if (uri.scheme !== RESULTS_SCHEME) return undefined;
    const q = new URLSearchParams(uri.query);
    const page = Number(q.get('page') ?? 0);
    return { connectionId: q.get('c') ?? '', batchId: q.get('b') ?? '', page: Number.isInteger(page) && page >= 0 ? page : 0 };
  }

  /** Starts reading downloaded results; rows can be shown before the whole file is indexed. */
  open(connectionId: string, batchId: string, files: ResultFiles): BatchResults {
    const key = `${connectionId}|${batchId}`;
    const existing = this.opened.get(key);
    if (existing) return existing.results;
    const results = loadNetwork().BatchResults.open(files);
    this.opened.set(key, { results, connectionId, batchId });
    // Once every row is counted, the header's total is redrawn.
    void results.total().then(
      () => {
        for (const doc of vscode.workspace.textDocuments) if (this.parse(doc.uri)?.batchId === batchId) this.changed.fire(doc.uri);
      },
      () => undefined,
    );
    return results;
  }

  results(connectionId: string, batchId: string): BatchResults | undefined {
    return this.opened.get(`${connectionId}|${batchId}`)?.results;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const where = this.parse(uri);
    const results = where && this.results(where.connectionId, where.batchId);
    if (!where || !results) return vscode.l10n.t('These results are not open any more: open them again from the batch in the sidebar (Open Batch Results).');
    const from = where.page * ROWS_PER_PAGE;
    const rows = await results.page(from, ROWS_PER_PAGE);
    const count = groupDigits(results.count);
    const total = results.complete ? count : vscode.l10n.t('{0}+ (still counting)', count);
    const pages = results.complete ? Math.max(1, Math.ceil(results.count / ROWS_PER_PAGE)) : undefined;
    const page = pages ? vscode.l10n.t('page {0} of {1}', where.page + 1, pages) : vscode.l10n.t('page {0}', where.page + 1);
    const shown = rows.length ? ` ${vscode.l10n.t('(rows {0}–{1})', from + 1, from + rows.length)}` : '';
    const head = [
      `${vscode.l10n.t('Batch {0} · {1} rows', where.batchId, total)} · ${page}${shown}`,
      vscode.l10n.t('Other pages: the arrows in the title bar. A line\'s full request and response: "Open Batch Result Line…". Export as JSONL or CSV: "Export Batch Results…".'),
      '',
      `${'#'.padStart(6)}  ${'custom_id'.padEnd(24)}  ${'status'.padEnd(6)}  ${'tokens in/out'.padEnd(11)}  ${vscode.l10n.t('reply (first line) / ✗ error')}`,
    ];
    if (!rows.length) head.push(`        ${from === 0 ? vscode.l10n.t('(no rows: the batch wrote no results)') : vscode.l10n.t('(no rows on this page)')}`);
    return [...head, ...rows.map(rowLine)].join('\n') + '\n';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.opened.clear();
  }
}
