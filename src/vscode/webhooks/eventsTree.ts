/** The Events view: received deliveries, newest first, with their verdicts; filterable. */
import * as vscode from 'vscode';
import type { DeliveryRecord, Verdict } from '../../webhooks/records';
import { Commands, ContextKeys } from '../contributions';
import { setContext } from '../settings';
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

  getChildren(node?: EventNode): EventNode[] {
    if (node) return [];
    const { types, verdicts } = this.filter;
    return this.controller.events
      .list()
      .filter((r) => (!types?.length || types.includes(r.eventType ?? '')) && (!verdicts?.length || verdicts.includes(r.verdict)))
      .map((r) => new EventNode(r));
  }

  getTreeItem(node: EventNode): vscode.TreeItem {
    const r = node.record;
    const item = new vscode.TreeItem(r.eventType ?? (r.verdict === 'rejected' ? 'Rejected delivery' : 'Delivery'), vscode.TreeItemCollapsibleState.None);
    item.id = r.id;
    const time = new Date(r.receivedAt).toLocaleTimeString();
    const fwd = r.forward ? ` · → ${r.forward.status ?? r.forward.error} ${r.forward.durationMs} ms` : '';
    item.description = `${time} · ${r.verdict}${fwd}`;
    const [icon, color] = ICONS[r.verdict];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    item.tooltip = new vscode.MarkdownString(
      [
        `**${r.eventType ?? 'Delivery'}** — ${r.verdict}`,
        r.reason ? `_${r.reason}_` : '',
        `Received: ${new Date(r.receivedAt).toLocaleString()}`,
        `Event id: \`${r.eventId ?? '-'}\``,
        `webhook-id: \`${r.webhookId ?? '-'}\``,
        r.endpointId ? `Endpoint: \`${r.endpointId}\`` : '',
        r.forward ? `Forwarded to ${r.forward.url}: ${r.forward.status ?? r.forward.error} in ${r.forward.durationMs} ms` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    item.contextValue = `event.${r.verdict}${r.eventType?.startsWith('response.') ? '.response' : ''}`;
    item.command = { command: Commands.openEventPayload, title: 'Open Payload', arguments: [node] };
    item.accessibilityInformation = { label: `${r.eventType ?? 'Delivery'}, ${r.verdict}${r.reason ? `, ${r.reason}` : ''}, received ${time}` };
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
