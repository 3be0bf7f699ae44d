/** The Events view: received deliveries, newest first, with their verdicts; filterable. */
import * as vscode from 'vscode';
import { forwardFailed, latestAnswer, type DeliveryRecord, type Verdict } from '../../webhooks/records';
import { Commands, ContextKeys } from '../contributions';
import { setContext } from '../settings';
import { eventTooltipMarkdown } from './eventTooltip';
import type { ListenerController } from './listenerController';

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

export class EventNode {
  constructor(readonly record: DeliveryRecord) {}
}

export class EventsTree implements vscode.TreeDataProvider<EventNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EventNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  filter: EventFilter = {};
  private readonly sub: vscode.Disposable;

  constructor(private readonly controller: ListenerController) {
    this.sub = controller.onDidChange(() => this.changed.fire(undefined));
  }

  setFilter(filter: EventFilter): void {
    this.filter = filter;
    void setContext(ContextKeys.eventsFiltered, !!(filter.types?.length || filter.verdicts?.length));
    this.changed.fire(undefined);
  }

  /** The nodes last given out, by record id: the same object for the same row, so `reveal` finds it. */
  private nodes = new Map<string, EventNode>();

  getChildren(node?: EventNode): EventNode[] {
    if (node) return [];
    const { types, verdicts } = this.filter;
    const previous = this.nodes;
    this.nodes = new Map();
    return this.controller.events
      .list()
      .filter((r) => (!types?.length || types.includes(r.eventType ?? '')) && (!verdicts?.length || verdicts.includes(r.verdict)))
      .map((r) => {
        const old = previous.get(r.id);
        const n = old?.record === r ? old : new EventNode(r);
        this.nodes.set(r.id, n);
        return n;
      });
  }

  /** Every row is at the top. */
  getParent(): undefined {
    return undefined;
  }

  getTreeItem(node: EventNode): vscode.TreeItem {
    const r = node.record;
    const item = new vscode.TreeItem(r.eventType ?? (r.verdict === 'rejected' ? 'Rejected delivery' : 'Delivery'), vscode.TreeItemCollapsibleState.None);
    item.id = r.id;
    const time = new Date(r.receivedAt).toLocaleTimeString();
    const answer = appAnswer(r);
    // The verdict first, right after the type: a narrow sidebar cuts the time, not the verdict.
    item.description = `${r.verdict}${answer ? ` → ${answer}` : ''} · ${time}`;
    // A verified delivery the app refused (or never got) stands out from the ones it took.
    const [icon, color] = forwardFailed(latestAnswer(r)) ? APP_FAILED : ICONS[r.verdict];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    // Sender-controlled text, escaped; and not trusted, so no command link could run anyway.
    const tooltip = new vscode.MarkdownString(eventTooltipMarkdown(r, (ms) => new Date(ms).toLocaleString()), false);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    item.contextValue = `event.${r.verdict}${r.eventType?.startsWith('response.') ? '.response' : ''}`;
    // A summary row (rejections counted, not kept) has nothing more to show.
    if (!r.count) item.command = { command: Commands.inspectEvent, title: 'Inspect Delivery', arguments: [node] };
    item.accessibilityInformation = { label: `${r.eventType ?? 'Delivery'}, ${r.verdict}${r.reason ? `, ${r.reason}` : ''}${answer ? `, the app answered ${answer}` : ''}, received ${time}` };
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
