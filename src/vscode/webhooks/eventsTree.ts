/** The Events view: received deliveries, newest first, with their verdicts; filterable. */
import * as vscode from 'vscode';
import { forwardFailed, latestAnswer, type DeliveryRecord, type Verdict } from '../../webhooks/store/records';
import { Commands, ContextKeys } from '../contributions';
import { rowText } from '../plainText';
import { setContext } from '../settings';
import { eventRowText, eventTooltipMarkdown, verdictName } from './eventTooltip';
import type { EventSummary, WebhookEvents } from '../../webhooks/store/webhookEvents';
import { BurstGate } from './burst';
import { clockTime, dateTime, groupDigits } from '../../text/format';

export interface EventFilter {
  types?: string[];
  verdicts?: Verdict[];
}

const ICONS: Record<Verdict, [string, string]> = {
  verified: ['pass', 'testing.iconPassed'],
  duplicate: ['copy', 'descriptionForeground'],
  rejected: ['error', 'errorForeground'],
  malformed: ['warning', 'editorWarning.foreground'],
};

/** A verified delivery whose forward the app answered with a non-2xx status, or could not take. */
const APP_FAILED: [string, string] = ['warning', 'list.errorForeground'];

/** What the app made of the forward (or the latest replay), shortly: "500", "ECONNREFUSED". */
function appAnswer(r: DeliveryRecord): string | undefined {
  const f = latestAnswer(r);
  return f && String(f.status ?? f.error);
}

/**
 * Rows drawn at the top; older ones wait in one collapsed row, drawn only when opened. The store
 * keeps a thousand or more, and VS Code keeps every row it was given, with a handle of its own,
 * redrawn on each change: a burst of deliveries then built thousands of rows a second.
 */
export const TOP_ROWS = 100;

export class EventNode {
  readonly type = 'event';
  constructor(
    /** The row's record as of the last redraw (a forward's answer, a replay or a duplicate count makes a new version). */
    public summary: EventSummary,
    /** The Older deliveries row it is under, if it is not at the top. */
    public parent?: OlderEventsNode,
  ) {}

  /**
   * The record, decoded from the bytes the store keeps (a new object each time): rows hold no
   * decoded record, so a burst's thousand rows cost their summaries only (issue #35).
   */
  get record(): DeliveryRecord {
    return this.summary.record();
  }
}

/** "Older deliveries": the rows past the newest `TOP_ROWS` (of the filter's). */
export class OlderEventsNode {
  readonly type = 'older';
  count = 0;
}

export type EventsViewNode = EventNode | OlderEventsNode;

export class EventsTree implements vscode.TreeDataProvider<EventsViewNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EventsViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  filter: EventFilter = {};
  private readonly subs: vscode.Disposable[];
  /** Rows to redraw at the next tick: `all` after new rows, else only the ones whose record changed. */
  private pending: { all: boolean; ids: Set<string> } | undefined;
  /** Once a second during a burst: each redraw sends every row at the top to VS Code again. */
  private readonly gate = new BurstGate(() => this.redraw(), 50, 1_000);

  constructor(private readonly events: WebhookEvents) {
    this.subs = [events.onDidArrive(() => this.schedule()), events.onDidReset(() => this.schedule()), events.onDidUpdate((id) => this.schedule(id))];
  }

  /** A burst of deliveries (or of duplicate counts) redraws the view once a second, not once each. */
  private schedule(id?: string): void {
    this.pending ??= { all: false, ids: new Set() };
    if (id === undefined) this.pending.all = true;
    else this.pending.ids.add(id);
    this.gate.schedule();
  }

  private redraw(): void {
    const { all, ids } = this.pending!;
    this.pending = undefined;
    if (all) return this.changed.fire(undefined);
    for (const id of ids) {
      const node = this.nodes.get(id);
      const summary = this.events.summary(id);
      if (!node || !summary) continue;
      node.summary = summary;
      this.changed.fire(node);
    }
  }

  setFilter(filter: EventFilter): void {
    this.filter = filter;
    void setContext(ContextKeys.eventsFiltered, !!(filter.types?.length || filter.verdicts?.length));
    this.changed.fire(undefined);
  }

  /** The nodes last given out, by record id: the same object for the same row, so `reveal` finds it. */
  private nodes = new Map<string, EventNode>();
  /** Every row the filter lets through, newest first, as of the last redraw. */
  private ordered: EventNode[] = [];
  private readonly older = new OlderEventsNode();

  getChildren(node?: EventsViewNode): EventsViewNode[] {
    if (node?.type === 'event') return [];
    if (node) return this.ordered.slice(TOP_ROWS);
    const { types, verdicts } = this.filter;
    const previous = this.nodes;
    this.nodes = new Map();
    this.ordered = this.events
      .summaries()
      .filter((r) => (!types?.length || types.includes(r.eventType ?? '')) && (!verdicts?.length || verdicts.includes(r.verdict)))
      .map((r, i) => {
        // The same node for the same row, so `reveal` and the selection find it.
        const n = previous.get(r.id) ?? new EventNode(r);
        n.summary = r;
        n.parent = i < TOP_ROWS ? undefined : this.older;
        this.nodes.set(r.id, n);
        return n;
      });
    this.older.count = this.ordered.length - TOP_ROWS;
    return this.older.count > 0 ? [...this.ordered.slice(0, TOP_ROWS), this.older] : this.ordered;
  }

  /** Every event's row in the order the view shows them, the older ones' included (they are drawn only when opened). */
  rows(): EventNode[] {
    this.getChildren();
    return this.ordered;
  }

  getParent(node: EventsViewNode): OlderEventsNode | undefined {
    return node.type === 'event' ? node.parent : undefined;
  }

  /** The tooltip, made when the pointer rests on a row: rows do not carry one each. */
  resolveTreeItem(item: vscode.TreeItem, node: EventsViewNode): vscode.TreeItem {
    if (node.type !== 'event') return item;
    // Sender-controlled text, escaped; and not trusted, so no command link could run anyway.
    const tooltip = new vscode.MarkdownString(eventTooltipMarkdown(node.record, (ms) => dateTime(ms)), false);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    return item;
  }

  getTreeItem(node: EventsViewNode): vscode.TreeItem {
    if (node.type === 'older') {
      const item = new vscode.TreeItem(vscode.l10n.t('Older deliveries'), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = 'aoaiWorkbench.olderEvents';
      item.description = groupDigits(node.count);
      item.iconPath = new vscode.ThemeIcon('history');
      item.tooltip = vscode.l10n.t('The {0} deliveries received before the newest {1}', groupDigits(node.count), TOP_ROWS);
      return item;
    }
    const r = node.record;
    const time = clockTime(r.receivedAt);
    const answer = appAnswer(r);
    const { label, description } = eventRowText(r, answer, time);
    // The type and the app's answer are whatever the sender and the app said: as text.
    const item = new vscode.TreeItem(rowText(label), vscode.TreeItemCollapsibleState.None);
    item.id = r.id;
    item.description = rowText(description, 300);
    // A verified delivery the app refused (or never got) stands out from the ones it took.
    const [icon, color] = forwardFailed(latestAnswer(r)) ? APP_FAILED : ICONS[r.verdict];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    item.contextValue = `event.${r.verdict}${r.eventType?.startsWith('response.') ? '.response' : ''}`;
    // A summary row (rejections counted, not kept) has nothing more to show.
    if (!r.count) item.command = { command: Commands.inspectEvent, title: vscode.l10n.t('Inspect Delivery'), arguments: [node] };
    const said = [label, verdictName(r.verdict), r.reason, answer && vscode.l10n.t('the app answered {0}', answer), vscode.l10n.t('received {0}', time)];
    item.accessibilityInformation = { label: said.filter(Boolean).join(', ') };
    return item;
  }

  dispose(): void {
    this.gate.dispose();
    this.subs.forEach((d) => d.dispose());
    this.changed.dispose();
  }
}
