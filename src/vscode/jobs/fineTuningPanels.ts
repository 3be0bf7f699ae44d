/**
 * Fine-tuning job pages: one webview panel per job (opened from its sidebar row), showing what
 * src/jobs/fineTuningDetails.ts reads. While a job runs and its panel is visible, the panel reads
 * it again, soon after a change and less often while nothing moves; a change the sidebar learns of
 * (a fine_tuning.job.* delivery, its own polling) refreshes it at once. Actions run the commands.
 */
import * as vscode from 'vscode';
import { readJobDetails, type JobDetails } from '../../jobs/fineTuningDetails';
import { jobView } from './fineTuningView';
import { JOB_FINAL, type FineTuningJob } from '../../service/jobTypes';
import { parseFineTuningViewMessage, type FineTuningHostMessage, type FineTuningViewMessage, type JobAction } from '../../webview/fineTuning/protocol';
import type { ClientCache } from '../connections/clients';
import type { ConnectionInfo } from '../connections/connectionStore';
import { owned } from '../ownedArgs';
import { Commands, Views } from '../contributions';
import { errorText } from '../log';
import { PanelHost } from '../webview/panelHost';
import { webviewHtml } from '../webviewHtml';
import type { JobLists } from './jobLists';
import { loadMarkup } from '../bundles';

/** First wait between reads while the job runs; doubled while nothing changes, up to the max. */
export const POLL_FIRST_MS = 2_000;
const POLL_MAX_MS = 30_000;

const COMMAND_OF: Record<JobAction, string> = {
  cancel: Commands.cancelFineTuningJob,
  pause: Commands.pauseFineTuningJob,
  resume: Commands.resumeFineTuningJob,
  deploy: Commands.deployFineTunedModel,
};

/** Whether a read shows anything new: another status, a new event or checkpoint. */
const moved = (a: JobDetails, b: JobDetails) =>
  a.job.status !== b.job.status || a.events[0]?.id !== b.events[0]?.id || a.checkpoints.length !== b.checkpoints.length;

class JobPanel implements vscode.Disposable {
  readonly host: PanelHost<FineTuningHostMessage, FineTuningViewMessage>;
  details: JobDetails | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delay = POLL_FIRST_MS;
  private reading: Promise<void> | undefined;
  private again = false;
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly owner: FineTuningPanels,
    readonly conn: ConnectionInfo,
    readonly jobId: string,
    onDispose: () => void,
  ) {
    const panel = vscode.window.createWebviewPanel(Views.fineTuningJob, vscode.l10n.t('Fine-tuning {0}', jobId), vscode.ViewColumn.Active, {});
    this.host = new PanelHost(
      panel,
      owner.extensionUri,
      {
        label: 'the fine-tuning job page',
        html: (webview) =>
          webviewHtml(webview, owner.extensionUri, {
            title: vscode.l10n.t('Fine-tuning job'),
            style: 'fineTuning.css',
            script: 'pages.js',
            page: 'fineTuning',
            body: loadMarkup().fineTuningBodyHtml(),
          }),
        parse: parseFineTuningViewMessage,
        onReady: () => (this.details ? this.send() : this.refresh()),
        onMessage: (msg) => (msg.type === 'refresh' ? this.refresh() : this.act(msg.action)),
        onPost: (msg) => owner.fire(jobId, msg),
      },
      () => {
        this.stop();
        this.subs.forEach((d) => d.dispose());
        onDispose();
      },
    );
    let visible = panel.visible;
    this.subs = [
      // Hidden, it waits; shown again, it reads the job at once (a change of focus alone reads nothing).
      panel.onDidChangeViewState(() => {
        if (panel.visible === visible) return;
        visible = panel.visible;
        if (visible) void this.refresh();
        else this.stop();
      }),
    ];
  }

  get final(): boolean {
    return !!this.details && JOB_FINAL.has(this.details.job.status);
  }

  /** The sidebar saw the job change (a delivery, its own poll): read it now if the page shows another status. */
  sidebarSaw(job: FineTuningJob): void {
    if (this.details && job.status !== this.details.job.status) void this.refresh();
  }

  /** Reads the job (the new events only) and sends it; one read at a time, a request during one reads again after. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.stop();
    this.reading = this.read().finally(() => {
      this.reading = undefined;
      if (this.again) {
        this.again = false;
        void this.refresh();
      } else this.schedule();
    });
    return this.reading;
  }

  private async read(): Promise<void> {
    const before = this.details;
    try {
      const api = (await this.owner.clients.get(this.conn)).jobs.fineTuning;
      const read = await readJobDetails(api, this.jobId, before?.events);
      this.details = { ...read, eventsCapped: read.eventsCapped || !!before?.eventsCapped };
      const changed = !before || moved(before, read);
      this.delay = changed ? POLL_FIRST_MS : Math.min(this.delay * 2, POLL_MAX_MS);
      if (!before || before.job.status !== read.job.status) this.owner.jobs.upsert(this.conn.id, 'fineTuning', read.job);
      if (changed) this.send();
    } catch (err) {
      this.delay = Math.min(this.delay * 2, POLL_MAX_MS);
      const text = before
        ? vscode.l10n.t('Could not read the fine-tuning job {0} ({1}). The page shows what was read before. Refresh to try again.', this.jobId, errorText(err))
        : vscode.l10n.t('Could not read the fine-tuning job {0} ({1}). Refresh to try again.', this.jobId, errorText(err));
      this.host.post({ type: 'error', text });
    }
  }

  private send(): void {
    if (this.details) this.host.post({ type: 'job', job: jobView(this.details, this.conn.label) });
  }

  /** Reads again later while the job can still change and its panel is visible. */
  private schedule(): void {
    this.stop();
    if (this.host.isDisposed || !this.host.panel.visible || !this.details || this.final) return;
    this.timer = setTimeout(() => void this.refresh(), this.delay);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async act(action: JobAction): Promise<void> {
    const target = owned({ connectionId: this.conn.id, jobId: this.jobId });
    // The command asks before cancelling only when run from the sidebar: this page asks itself.
    if (action === 'cancel') {
      const cancel = vscode.l10n.t('Cancel Job');
      const yes = await vscode.window.showWarningMessage(vscode.l10n.t('Cancel fine-tuning job {0}? It cannot be resumed.', this.jobId), { modal: true }, cancel);
      if (yes !== cancel) return;
    }
    await vscode.commands.executeCommand(COMMAND_OF[action], target);
    await this.refresh();
  }

  dispose(): void {
    this.stop();
    this.host.dispose();
  }
}

export class FineTuningPanels implements vscode.Disposable {
  private readonly panels = new Map<string, JobPanel>();
  private readonly posted = new vscode.EventEmitter<{ jobId: string; msg: FineTuningHostMessage }>();
  /** Every message sent to a job's page (tests watch this). */
  readonly onDidPost = this.posted.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly jobs: JobLists,
    readonly clients: ClientCache,
  ) {
    this.subscription = jobs.onDidChange(({ connectionId, kind }) => {
      if (kind !== 'fineTuning') return;
      const listed = jobs.list<FineTuningJob>(connectionId, 'fineTuning').items;
      for (const p of this.panels.values()) {
        const job = p.conn.id === connectionId ? listed.find((j) => j.id === p.jobId) : undefined;
        if (job) p.sidebarSaw(job);
      }
    });
  }

  /** @internal */
  fire(jobId: string, msg: FineTuningHostMessage): void {
    this.posted.fire({ jobId, msg });
  }

  /** Opens the job's page, or brings it to the front and reads the job again. */
  show(conn: ConnectionInfo, jobId: string): void {
    const key = `${conn.id}|${jobId}`;
    const open = this.panels.get(key);
    if (open) {
      open.host.panel.reveal();
      void open.refresh();
      return;
    }
    this.panels.set(key, new JobPanel(this, conn, jobId, () => this.panels.delete(key)));
  }

  /** The open page of a job (tests read its HTML and send it messages). */
  panel(connectionId: string, jobId: string): { html: string; receive(raw: unknown): Promise<void>; refresh(): Promise<void> } | undefined {
    const p = this.panels.get(`${connectionId}|${jobId}`);
    return p && { html: p.host.panel.webview.html, receive: (raw) => p.host.receive(raw), refresh: () => p.refresh() };
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.subscription.dispose();
    this.posted.dispose();
  }
}
