/**
 * The one owner of the usage log in this window: every request either chat sends through the
 * runner arrives here as a report (`report`, handed to the runner as `onReport`), is appended to
 * the log in the extension's global storage, and `onDidChange` fires; the usage view and the
 * status bar only listen. Never a prompt, a reply or a key: only what `usageRecordOf` copies.
 * Caps and prices come from user settings; a malformed price entry is said once and ignored.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RequestReport } from '../../chat/engine/report';
import { connectionName } from '../../chat/naming';
import type { ResultFiles } from '../../jobs/batchResults';
import type { Batch } from '../../service/jobTypes';
import type { AggregateOptions, UsageSummary } from '../../usage/aggregate';
import type { PriceTable } from '../../usage/prices';
import type { UsageLog } from '../../usage/usageLog';
import { loadUsage } from '../bundles';
import type { ConnectionStore } from '../connections/connectionStore';
import { errorText, logError } from '../log';
import { plainLine } from '../plainText';
import { onDidChangeSettings, setting } from '../settings';

/** The log's file in the extension's global storage (shared by every window). */
export const USAGE_FILE = 'usage.jsonl';
/** One empty file per batch whose usage was recorded, beside the log: a batch is recorded once. */
export const BATCH_MARKERS = 'usage-batches';

export class UsageRecorder implements vscode.Disposable {
  private log: Promise<UsageLog> | undefined;
  private priceTable: PriceTable | undefined;
  private readonly warned = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** A record was appended (or the caps or prices changed): summaries are stale. */
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[];
  /** The file's size when this window last looked: another window's records change it. */
  private seenSize = -1;

  constructor(
    private readonly storage: vscode.Uri,
    private readonly connections: Pick<ConnectionStore, 'get'>,
  ) {
    this.subs = [
      this.changed,
      onDidChangeSettings(['usage.maxAgeDays', 'usage.maxSizeMB'], () => {
        this.log = undefined;
        this.changed.fire();
      }),
      onDidChangeSettings(['usage.prices'], () => {
        this.priceTable = undefined;
        this.changed.fire();
      }),
      // Every window appends to the one log: coming back to this one, look whether others did.
      vscode.window.onDidChangeWindowState((state) => state.focused && void this.checkOtherWindows()),
    ];
  }

  get path(): string {
    return join(this.storage.fsPath, USAGE_FILE);
  }

  /** The runner's `onReport`: records the request after this turn (the reply is not held up). */
  readonly report = (r: RequestReport): void => {
    void this.add(r);
  };

  /**
   * Appends one report (written with the others of its moment: `flush()` waits for the disk).
   * A failure is logged, never thrown at a chat.
   */
  async add(r: RequestReport): Promise<void> {
    const conn = r.connection === undefined ? undefined : this.connections.get(r.connection);
    try {
      const log = await this.open();
      log.append(loadUsage().usageRecordOf(r, conn ? connectionName(conn) : (r.connection ?? '')));
      this.changed.fire();
    } catch (err) {
      logError(`Could not record the usage of a request to ${r.deployment}: ${errorText(err)}`);
    }
  }

  /**
   * Records a finished batch's usage from its downloaded results, once: opening them again, in
   * this window or another, after a reload, records nothing. Resolves to the requests recorded.
   */
  async recordBatch(connectionId: string, batch: Batch, files: ResultFiles, deployment?: string): Promise<number> {
    const conn = this.connections.get(connectionId);
    try {
      const { batchUsageRecords, claimOnce } = loadUsage();
      const records = await batchUsageRecords(files, batch, { connectionId, connectionLabel: conn ? connectionName(conn) : connectionId, deployment });
      if (!records.length || !(await claimOnce(join(this.storage.fsPath, BATCH_MARKERS), batch.id))) return 0;
      const log = await this.open();
      for (const r of records) log.append(r);
      await log.flush();
      this.changed.fire();
      return records.reduce((n, r) => n + (r.requests ?? 1), 0);
    } catch (err) {
      logError(`Could not record the usage of batch ${batch.id}: ${errorText(err)}`);
      return 0;
    }
  }

  private async checkOtherWindows(): Promise<void> {
    const size = await stat(this.path).then((s) => s.size, () => 0);
    if (this.seenSize >= 0 && size !== this.seenSize) this.changed.fire();
    this.seenSize = size;
  }

  /** The usage view's tables, with the user's prices over the shipped ones. */
  async summarize(options: Omit<AggregateOptions, 'prices'> = {}): Promise<UsageSummary> {
    const log = await this.open();
    await log.flush();
    return log.summarize({ ...options, prices: this.prices() });
  }

  /** Empties the log for every window. */
  async clear(): Promise<void> {
    await (await this.open()).clear();
    this.changed.fire();
  }

  /** The shipped prices with the user's setting over them; each bad entry is said once and left out. */
  prices(): PriceTable {
    if (this.priceTable) return this.priceTable;
    const { table, problems } = loadUsage().readPriceSetting(setting('usage.prices'));
    for (const problem of problems) {
      if (this.warned.has(problem)) continue;
      this.warned.add(problem);
      logError(`aoaiWorkbench.usage.prices: ${problem}`);
      void vscode.window.showWarningMessage(vscode.l10n.t('Usage prices: {0}', plainLine(problem, 400)), vscode.l10n.t('Open Settings')).then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'aoaiWorkbench.usage.prices');
      });
    }
    this.priceTable = table;
    return table;
  }

  private open(): Promise<UsageLog> {
    if (!this.log) {
      const { UsageLog, usageCaps } = loadUsage();
      const caps = usageCaps({ maxAgeDays: setting('usage.maxAgeDays'), maxBytes: setting('usage.maxSizeMB') * 1024 * 1024 });
      const opening = UsageLog.open(this.path, caps);
      // A failed open is tried again next time (a full disk may have room by then).
      opening.catch(() => this.log === opening && (this.log = undefined));
      this.log = opening;
    }
    return this.log;
  }

  /** Resolves when every record handed over so far is on disk. */
  async flush(): Promise<void> {
    await (await this.log)?.flush();
  }

  /** Writes what waits (deactivate also awaits `flush()`: VS Code waits for it there). */
  dispose(): void {
    void this.flush();
    this.subs.forEach((d) => d.dispose());
  }
}
