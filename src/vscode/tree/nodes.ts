/** The sidebar's node types and how each looks as a TreeItem. */
import * as vscode from 'vscode';
import { isChatDeployment } from '../../chat/lm/catalog';
import type { Deployment, WebhookEndpoint } from '../../service/types';
import type { PendingRotation, RotationRole } from '../../webhooks/endpoints/rotation';
import { tokenSourceLabel } from '../auth/authManager';
import type { ConnectionInfo } from '../connections/connectionStore';
import { Commands } from '../contributions';
import type { JobNode } from './jobNodes';
import { hostOf } from '../../chat/naming';

export type GroupKind = 'deployments' | 'webhookEndpoints';

type Item = Deployment | WebhookEndpoint;

export type LoadState<T = Item> =
  | { status: 'idle' }
  | { status: 'loading'; pending: Promise<unknown> }
  | { status: 'loaded'; items: T[]; shown: number; cursor?: string; hasMore: boolean }
  | { status: 'error'; message: string };

export class ConnectionNode {
  readonly type = 'connection';
  readonly deployments: GroupNode;
  readonly webhooks: GroupNode;
  constructor(public info: ConnectionInfo) {
    this.deployments = new GroupNode('deployments', this);
    this.webhooks = new GroupNode('webhookEndpoints', this);
  }
}

export class GroupNode {
  readonly type = 'group';
  /** Webhook endpoints: the list as paged so far. Deployments are the catalog's list. */
  state: LoadState = { status: 'idle' };
  /** Deployments: how many of the catalog's list the tree reveals (one page until Load more). */
  shown: number | undefined;
  constructor(
    readonly kind: GroupKind,
    readonly parent: ConnectionNode,
  ) {}
  get connection(): ConnectionInfo {
    return this.parent.info;
  }
}

/** An item listed under a group; it belongs to the group's connection. */
abstract class GroupItemNode {
  constructor(readonly parent: GroupNode) {}
  get connection(): ConnectionInfo {
    return this.parent.connection;
  }
}

export class DeploymentNode extends GroupItemNode {
  readonly type = 'deployment';
  constructor(
    parent: GroupNode,
    readonly deployment: Deployment,
  ) {
    super(parent);
  }
}

/** How each side of a secret rotation shows in the tree. */
const ROTATION_LOOK: Record<RotationRole, { prefix: string; state: string; icon: string; color: string }> = {
  replacement: { prefix: 'New secret: ', state: 'new secret, rotating', icon: 'key', color: 'testing.iconPassed' },
  replaced: { prefix: 'Old secret: ', state: 'old secret, being replaced', icon: 'history', color: 'list.warningForeground' },
};

export class WebhookNode extends GroupItemNode {
  readonly type = 'webhookEndpoint';
  constructor(
    parent: GroupNode,
    readonly endpoint: WebhookEndpoint,
    readonly hasSecret: boolean,
    /** Its side of a secret rotation in progress, if it is in one. */
    readonly rotation?: { rotation: PendingRotation; role: RotationRole },
  ) {
    super(parent);
  }
}

/** Loading, empty and error rows; an error row's command retries. */
export class MessageNode {
  readonly type = 'message';
  constructor(
    readonly parent: GroupNode,
    readonly kind: 'loading' | 'empty' | 'error',
    readonly text: string,
    readonly detail?: string,
  ) {}
}

export class LoadMoreNode {
  readonly type = 'loadMore';
  constructor(
    readonly parent: GroupNode,
    readonly remaining: number | undefined,
  ) {}
}

export type TreeNode = ConnectionNode | GroupNode | DeploymentNode | WebhookNode | MessageNode | LoadMoreNode | JobNode;

function md(lines: string[]): vscode.MarkdownString {
  const m = new vscode.MarkdownString(lines.join('\n\n'));
  m.supportHtml = false;
  return m;
}

const escapeMd = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');

/** `group` is the state of a group node's list (the tree knows where each kind's list lives). */
export function toTreeItem(node: Exclude<TreeNode, JobNode>, group?: LoadState): vscode.TreeItem {
  switch (node.type) {
    case 'connection': {
      const c = node.info;
      const item = new vscode.TreeItem(c.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `connection:${c.id}`;
      const auth = c.auth === 'apiKey' ? 'API key (in secret storage)' : `Entra ID via ${tokenSourceLabel(c.tokenSource)}${c.tenantId ? `, tenant ${c.tenantId}` : ''}`;
      item.description = [hostOf(c.endpoint), c.local ? 'local emulator' : undefined, c.auth === 'entraId' ? 'Entra ID' : undefined].filter(Boolean).join(' · ');
      item.tooltip = md([`**${escapeMd(c.label)}**`, `Endpoint: ${escapeMd(c.endpoint)}`, `Authentication: ${escapeMd(auth)}`, c.armId ? `Resource: ${escapeMd(c.armId)}` : ''].filter(Boolean));
      item.iconPath = new vscode.ThemeIcon(c.local ? 'vm' : 'cloud');
      item.contextValue = 'connection';
      return item;
    }
    case 'group': {
      const deployments = node.kind === 'deployments';
      const item = new vscode.TreeItem(deployments ? 'Deployments' : 'Webhook endpoints', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.kind}:${node.connection.id}`;
      item.iconPath = new vscode.ThemeIcon(deployments ? 'layers' : 'broadcast');
      item.contextValue = node.kind;
      if (group?.status === 'loaded') item.description = `${group.items.length}${group.hasMore ? '+' : ''}`;
      return item;
    }
    case 'deployment': {
      const d = node.deployment;
      const chat = isChatDeployment(d);
      const item = new vscode.TreeItem(d.name, vscode.TreeItemCollapsibleState.None);
      item.id = `deployment:${node.connection.id}:${d.name}`;
      const model = [d.model, d.modelVersion].filter(Boolean).join(' ');
      const capacity = d.capacity !== undefined ? String(d.capacity) : undefined;
      // The data plane's "scale type" (manual, standard) is not a SKU: only the tooltip names it.
      const dataPlane = d.source === 'data-plane';
      const sku = dataPlane ? [d.sku, capacity && `capacity ${capacity}`].filter(Boolean).join(', ') : [d.sku, capacity].filter(Boolean).join(' ');
      // The name often is the model's: then the version alone says what is deployed.
      const what = d.model === d.name ? d.modelVersion : model;
      item.description = [what, dataPlane ? undefined : sku].filter(Boolean).join(' · ');
      const limits = d.rateLimits
        ? `Rate limits: ${d.rateLimits.requestsPerMinute ?? '?'} requests/min, ${d.rateLimits.tokensPerMinute ?? '?'} tokens/min`
        : 'Rate limits: not reported by this listing (add the connection from Azure to see them)';
      item.tooltip = md([
        `**${escapeMd(d.name)}**`,
        `Model: ${escapeMd(model || 'unknown')}`,
        `${dataPlane ? 'Scale' : 'SKU'}: ${escapeMd(sku || 'unknown')}`,
        limits,
        d.provisioningState ? `State: ${escapeMd(d.provisioningState)}` : '',
        d.source === 'models' ? '_Listed from the models API: this name may not be a deployment._' : '',
        chat ? '' : '_Not a chat model: the chat pickers do not offer it._',
      ].filter(Boolean));
      item.iconPath = new vscode.ThemeIcon('hubot');
      // Open Chat shows on chat deployments only (the same test as the chat pickers').
      item.contextValue = chat ? 'deployment' : 'deployment.noChat';
      item.accessibilityInformation = { label: `Deployment ${d.name}, model ${model || 'unknown'}${sku ? `, ${dataPlane ? 'scale ' : ''}${sku}` : ''}` };
      return item;
    }
    case 'webhookEndpoint': {
      const e = node.endpoint;
      const look = node.rotation && ROTATION_LOOK[node.rotation.role];
      const rotating = look?.state;
      // In a rotation both rows have one name and URL: the side goes first, where a narrow sidebar does not cut it.
      const item = new vscode.TreeItem(`${look?.prefix ?? ''}${e.name || e.id}`, vscode.TreeItemCollapsibleState.None);
      item.id = `webhook:${node.connection.id}:${e.id}`;
      item.description = rotating ? `${rotating} · ${e.url}` : e.url;
      item.tooltip = md([
        `**${escapeMd(e.name || e.id)}**`,
        rotating ? `Rotation in progress: ${rotating}. Both secrets are accepted until you finish (delete the old endpoint) or cancel (delete the new one).` : '',
        node.rotation ? (node.rotation.role === 'replacement' ? `Replaces: \`${node.rotation.rotation.oldId}\`` : `Replaced by: \`${node.rotation.rotation.newId}\``) : '',
        `ID: \`${e.id}\``,
        `URL: ${escapeMd(e.url)}`,
        `Events: ${e.event_types.map((t) => `\`${t}\``).join(', ') || 'none'}`,
        node.hasSecret ? 'Signing secret: kept in secret storage' : `Signing secret: not stored here${e.signing_secret_hint ? ` (hint ${escapeMd(e.signing_secret_hint)})` : ''}`,
      ]);
      item.iconPath = look ? new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color)) : new vscode.ThemeIcon('radio-tower');
      item.contextValue = `webhookEndpoint${node.hasSecret ? '.secret' : ''}${node.rotation ? '.rotating' : ''}`;
      item.accessibilityInformation = { label: `Webhook endpoint ${e.name}${rotating ? `, ${rotating}` : ''}, ${e.url}, events ${e.event_types.join(', ')}` };
      return item;
    }
    case 'message': {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.id = `${node.kind}:${node.parent.kind}:${node.parent.connection.id}`;
      item.tooltip = node.detail ?? node.text;
      item.description = node.kind === 'error' ? 'Click to retry' : undefined;
      item.iconPath =
        node.kind === 'loading' ? new vscode.ThemeIcon('loading~spin') : node.kind === 'error' ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')) : new vscode.ThemeIcon('info');
      item.contextValue = `message.${node.kind}`;
      if (node.kind === 'error') item.command = { command: Commands.refreshNode, title: 'Retry', arguments: [node.parent] };
      if (node.kind === 'empty' && node.parent.kind === 'webhookEndpoints') {
        item.command = { command: Commands.createWebhookEndpoint, title: 'Create Webhook Endpoint', arguments: [node.parent] };
      }
      return item;
    }
    case 'loadMore': {
      const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
      item.id = `more:${node.parent.kind}:${node.parent.connection.id}`;
      item.description = node.remaining !== undefined ? `${node.remaining} more` : undefined;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: Commands.loadMore, title: 'Load More', arguments: [node.parent] };
      return item;
    }
  }
}
