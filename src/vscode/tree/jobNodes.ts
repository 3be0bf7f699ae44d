/**
 * The sidebar's Batches, Fine-tuning jobs and Calls under each connection: node types, and how
 * each looks (status icon, the times that matter, counts). The lists are JobLists' (src/vscode/jobs).
 */
import * as vscode from 'vscode';
import type { Batch, FineTuningJob } from '../../service/jobTypes';
import { Commands } from '../contributions';
import type { CallEntry, JobKind } from '../jobs/jobLists';
import type { ConnectionInfo } from '../connections/connectionStore';
import { clockTime, dateTime, groupDigits } from '../../text/format';
import { partyMarkdown, partyRow } from '../jobs/callParty';
import { cutText, markdownLine, rowText } from '../plainText';

/** The connection row a group sits under (nodes.ts's ConnectionNode, named by its shape: nodes.ts lists job nodes). */
interface ConnectionRow {
  readonly type: 'connection';
  readonly info: ConnectionInfo;
}

export class JobGroupNode {
  readonly type = 'jobGroup';
  constructor(
    readonly kind: JobKind,
    readonly parent: ConnectionRow,
  ) {}
  get connection() {
    return this.parent.info;
  }
}

abstract class JobItemNode {
  constructor(readonly parent: JobGroupNode) {}
  get connection() {
    return this.parent.connection;
  }
}

export class BatchNode extends JobItemNode {
  readonly type = 'batch';
  constructor(
    parent: JobGroupNode,
    readonly batch: Batch,
  ) {
    super(parent);
  }
}

export class FineTuningJobNode extends JobItemNode {
  readonly type = 'fineTuningJob';
  constructor(
    parent: JobGroupNode,
    readonly job: FineTuningJob,
  ) {
    super(parent);
  }
}

export class CallNode extends JobItemNode {
  readonly type = 'call';
  constructor(
    parent: JobGroupNode,
    readonly call: CallEntry,
  ) {
    super(parent);
  }
}

export type JobNode = JobGroupNode | BatchNode | FineTuningJobNode | CallNode;

export function isJobNode(node: unknown): node is JobNode {
  return node instanceof JobGroupNode || node instanceof JobItemNode;
}

/** A group's name and icon, its empty row's words and what clicking that row creates. */
export const groupLook = (kind: JobKind): { label: string; icon: string; empty: string; create?: string } =>
  ({
    batches: () => ({ label: vscode.l10n.t('Batches'), icon: 'layers-active', empty: vscode.l10n.t('No batches yet: click to create one'), create: Commands.createBatch }),
    fineTuning: () => ({
      label: vscode.l10n.t('Fine-tuning jobs'),
      icon: 'beaker',
      empty: vscode.l10n.t('No fine-tuning jobs yet: click to create one'),
      create: Commands.createFineTuningJob,
    }),
    calls: () => ({ label: vscode.l10n.t('Calls'), icon: 'call-incoming', empty: vscode.l10n.t('No calls yet: they appear when one rings') }),
  })[kind]();

/** The icon of each status, and its color: running ones (any other status) spin, finished ones say how they ended. */
const STATUS_ICONS = new Map(
  Object.entries({
    completed: ['pass', 'testing.iconPassed'],
    succeeded: ['pass', 'testing.iconPassed'],
    accepted: ['pass', 'testing.iconPassed'],
    failed: ['error', 'errorForeground'],
    expired: ['watch', 'list.warningForeground'],
    cancelled: ['circle-slash'],
    rejected: ['circle-slash'],
    ended: ['circle-slash'],
    paused: ['debug-pause'],
    referred: ['arrow-right'],
    ringing: ['bell-dot', 'list.warningForeground'],
  }),
);

function statusIcon(status: string): vscode.ThemeIcon {
  const [icon, color] = STATUS_ICONS.get(status) ?? ['sync~spin'];
  return new vscode.ThemeIcon(icon!, color ? new vscode.ThemeColor(color) : undefined);
}

/** "3 min", "1 h 5 min", "40 s". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return vscode.l10n.t('{0} s', s);
  if (s < 3600) return vscode.l10n.t('{0} min', Math.floor(s / 60));
  return vscode.l10n.t('{0} h {1} min', Math.floor(s / 3600), Math.floor((s % 3600) / 60));
}

const when = (seconds: number | null | undefined) => (seconds ? dateTime(seconds * 1000) : undefined);
const ended = (b: Batch) => b.completed_at ?? b.failed_at ?? b.expired_at ?? b.cancelled_at ?? null;

/** A row's tooltip: Markdown paragraphs (the empty ones left out), never HTML. */
export function md(lines: Array<string | undefined | false>): vscode.MarkdownString {
  const m = new vscode.MarkdownString(lines.filter(Boolean).join('\n\n'));
  m.supportHtml = false;
  return m;
}

/** The service's and the caller's words in a tooltip: literal Markdown text, one line. */
const esc = (s: string, max?: number) => markdownLine(s, max);

export function jobTreeItem(node: JobNode, count?: string): vscode.TreeItem {
  const conn = node.type === 'jobGroup' ? node.connection.id : node.parent.connection.id;
  switch (node.type) {
    case 'jobGroup': {
      const look = groupLook(node.kind);
      const item = new vscode.TreeItem(look.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.kind}:${conn}`;
      item.iconPath = new vscode.ThemeIcon(look.icon);
      item.contextValue = `jobs.${node.kind}`;
      item.description = count;
      return item;
    }
    case 'batch': {
      const b = node.batch;
      const c = b.request_counts;
      const name = b.metadata?.name;
      const item = new vscode.TreeItem(rowText(name || b.id), vscode.TreeItemCollapsibleState.None);
      item.id = `batch:${conn}:${b.id}`;
      const end = ended(b);
      const took = end ? duration(end - b.created_at) : duration(Date.now() / 1000 - b.created_at);
      const counts = c.failed ? vscode.l10n.t('{0}/{1}, {2} failed', c.completed, c.total, c.failed) : `${c.completed}/${c.total}`;
      item.description = [rowText(b.status, 40), c.total ? counts : undefined, end ? vscode.l10n.t('took {0}', took) : vscode.l10n.t('for {0}', took)].filter(Boolean).join(' · ');
      item.tooltip = md([
        `**${esc(name || b.id)}**`,
        vscode.l10n.t('Status: {0}', esc(b.status)),
        vscode.l10n.t('Requests: {0} done, {1} failed, {2} in all', c.completed, c.failed, c.total),
        vscode.l10n.t('Endpoint: {0}', esc(b.endpoint ?? vscode.l10n.t('unknown'))),
        vscode.l10n.t('Created: {0}', String(when(b.created_at))),
        end ? vscode.l10n.t('Finished: {0} ({1})', String(when(end)), took) : undefined,
        b.errors?.data.length ? vscode.l10n.t('Errors: {0}', esc(b.errors.data.slice(0, 3).map((e) => e.message ?? e.code ?? '').join('; '), 600)) : undefined,
        `ID: ${esc(b.id)}`,
      ]);
      item.iconPath = statusIcon(b.status);
      item.contextValue = `batch.${b.status}${b.output_file_id || b.error_file_id ? '.results' : ''}`;
      item.accessibilityInformation = { label: vscode.l10n.t('Batch {0}, {1}, {2} of {3} requests done', cutText(name || b.id, 200), cutText(b.status, 40), c.completed, c.total) };
      return item;
    }
    case 'fineTuningJob': {
      const j = node.job;
      const suffix = j.user_provided_suffix ?? j.suffix;
      const item = new vscode.TreeItem(rowText(j.fine_tuned_model ?? `${j.model}${suffix ? ` (${suffix})` : ''}`), vscode.TreeItemCollapsibleState.None);
      item.id = `ftjob:${conn}:${j.id}`;
      const took = j.finished_at
        ? vscode.l10n.t('took {0}', duration(j.finished_at - j.created_at))
        : vscode.l10n.t('for {0}', duration(Date.now() / 1000 - j.created_at));
      const tokens = j.trained_tokens ? vscode.l10n.t('{0} tokens', groupDigits(j.trained_tokens)) : undefined;
      item.description = [rowText(j.status, 40), tokens, took].filter(Boolean).join(' · ');
      item.tooltip = md([
        `**${esc(j.fine_tuned_model ?? j.id)}**`,
        vscode.l10n.t('Status: {0}', esc(j.status)),
        vscode.l10n.t('Base model: {0}', esc(j.model)),
        j.trained_tokens ? vscode.l10n.t('Trained tokens: {0}', groupDigits(j.trained_tokens)) : undefined,
        vscode.l10n.t('Created: {0}', String(when(j.created_at))),
        j.finished_at ? vscode.l10n.t('Finished: {0}', String(when(j.finished_at))) : undefined,
        j.error?.message ? vscode.l10n.t('Error: {0}', esc(j.error.message, 600)) : undefined,
        `ID: ${esc(j.id)}`,
      ]);
      item.iconPath = statusIcon(j.status);
      item.contextValue = `fineTuningJob.${j.status}`;
      item.command = { command: Commands.openFineTuningJob, title: vscode.l10n.t('Open Fine-tuning Job'), arguments: [node] };
      item.accessibilityInformation = { label: vscode.l10n.t('Fine-tuning job {0} of {1}, {2}', cutText(j.id, 200), cutText(j.model, 200), cutText(j.status, 40)) };
      return item;
    }
    case 'call': {
      const c = node.call;
      // From and To are the caller's words: the address apart from the name it gives, each as text.
      const item = new vscode.TreeItem(c.from ? partyRow(c.from) : rowText(c.id), vscode.TreeItemCollapsibleState.None);
      item.id = `call:${conn}:${c.id}`;
      const unknown = vscode.l10n.t('unknown');
      item.description = [c.state, c.to ? vscode.l10n.t('to {0}', partyRow(c.to)) : undefined, clockTime(c.at)].filter(Boolean).join(' · ');
      item.tooltip = md([
        `**${vscode.l10n.t('Call from {0}', c.from ? partyMarkdown(c.from) : unknown)}**`,
        vscode.l10n.t('State: {0}', c.state),
        ...c.headers.slice(0, 12).map((h) => `${esc(h.name, 60)}: ${esc(h.value)}`),
        `ID: ${esc(c.id)}`,
      ]);
      item.iconPath = statusIcon(c.state);
      item.contextValue = `call.${c.state}`;
      item.accessibilityInformation = { label: vscode.l10n.t('Call from {0}, {1}', c.from ? partyRow(c.from) : unknown, c.state) };
      return item;
    }
  }
}
