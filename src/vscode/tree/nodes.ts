/** The sidebar's node types and how each looks as a TreeItem. */
import * as vscode from 'vscode';
import { isChatDeployment } from '../../chat/lm/catalog';
import type { Deployment, WebhookEndpoint } from '../../service/types';
import type { PendingRotation, RotationRole } from '../../webhooks/endpoints/rotation';
import { tokenSourceLabel } from '../auth/authManager';
import type { ConnectionInfo } from '../connections/connectionStore';
import { Commands } from '../contributions';
import { cutText, markdownLine, rowText } from '../plainText';
import { groupLook, md, type JobGroupNode, type JobNode } from './jobNodes';
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
const rotationLook = (role: RotationRole): { label: (name: string) => string; state: string; icon: string; color: string } =>
  role === 'replacement'
    ? { label: (name) => vscode.l10n.t('New secret: {0}', name), state: vscode.l10n.t('new secret, rotating'), icon: 'key', color: 'testing.iconPassed' }
    : { label: (name) => vscode.l10n.t('Old secret: {0}', name), state: vscode.l10n.t('old secret, being replaced'), icon: 'history', color: 'list.warningForeground' };

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

/** The loading, empty, error and Load more rows of any group: an error row's click retries, an empty one's creates, Load more's loads. */
export class MessageNode {
  readonly type = 'message';
  constructor(
    readonly parent: GroupNode | JobGroupNode,
    readonly kind: 'loading' | 'empty' | 'error' | 'more',
    readonly text: string,
    readonly detail?: string,
    /** Load more: how many of the list the tree has not shown yet, when it knows. */
    readonly remaining?: number,
  ) {}
}

export type TreeNode = ConnectionNode | GroupNode | DeploymentNode | WebhookNode | MessageNode | JobNode;

/** The service's and Azure's words in a tooltip (names, URLs, ids): literal Markdown text, one line. */
const escapeMd = (s: string) => markdownLine(s, 300);

/** `group` is the state of a group node's list (the tree knows where each kind's list lives). */
export function toTreeItem(node: Exclude<TreeNode, JobNode>, group?: LoadState): vscode.TreeItem {
  switch (node.type) {
    case 'connection': {
      const c = node.info;
      const item = new vscode.TreeItem(rowText(c.label), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `connection:${c.id}`;
      const auth =
        c.auth === 'apiKey'
          ? vscode.l10n.t('API key (in secret storage)')
          : c.tenantId
            ? vscode.l10n.t('Entra ID via {0}, tenant {1}', tokenSourceLabel(c.tokenSource), c.tenantId)
            : vscode.l10n.t('Entra ID via {0}', tokenSourceLabel(c.tokenSource));
      item.description = [hostOf(c.endpoint), c.local ? vscode.l10n.t('local emulator') : undefined, c.auth === 'entraId' ? vscode.l10n.t('Entra ID') : undefined]
        .filter(Boolean)
        .join(' · ');
      item.tooltip = md(
        [
          `**${escapeMd(c.label)}**`,
          vscode.l10n.t('Endpoint: {0}', escapeMd(c.endpoint)),
          vscode.l10n.t('Authentication: {0}', escapeMd(auth)),
          c.armId ? vscode.l10n.t('Resource: {0}', escapeMd(c.armId)) : '',
        ],
      );
      item.iconPath = new vscode.ThemeIcon(c.local ? 'vm' : 'cloud');
      item.contextValue = 'connection';
      return item;
    }
    case 'group': {
      const deployments = node.kind === 'deployments';
      const item = new vscode.TreeItem(deployments ? vscode.l10n.t('Deployments') : vscode.l10n.t('Webhook endpoints'), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.kind}:${node.connection.id}`;
      item.iconPath = new vscode.ThemeIcon(deployments ? 'layers' : 'broadcast');
      item.contextValue = node.kind;
      if (group?.status === 'loaded') item.description = `${group.items.length}${group.hasMore ? '+' : ''}`;
      return item;
    }
    case 'deployment': {
      const d = node.deployment;
      const chat = isChatDeployment(d);
      // Names, models and states are the service's: each row shows them as text (plainText.ts).
      const item = new vscode.TreeItem(rowText(d.name), vscode.TreeItemCollapsibleState.None);
      item.id = `deployment:${node.connection.id}:${d.name}`;
      const model = [d.model, d.modelVersion].filter(Boolean).join(' ');
      const capacity = d.capacity !== undefined ? String(d.capacity) : undefined;
      // The data plane's "scale type" (manual, standard) is not a SKU: only the tooltip names it.
      const dataPlane = d.source === 'data-plane';
      const sku = dataPlane ? [d.sku, capacity && vscode.l10n.t('capacity {0}', capacity)].filter(Boolean).join(', ') : [d.sku, capacity].filter(Boolean).join(' ');
      // The name often is the model's: then the version alone says what is deployed.
      const what = d.model === d.name ? d.modelVersion : model;
      item.description = rowText([what, dataPlane ? undefined : sku].filter(Boolean).join(' · '));
      const limits = d.rateLimits
        ? vscode.l10n.t('Rate limits: {0} requests/min, {1} tokens/min', d.rateLimits.requestsPerMinute ?? '?', d.rateLimits.tokensPerMinute ?? '?')
        : vscode.l10n.t('Rate limits: not reported by this listing (add the connection from Azure to see them)');
      const unknown = vscode.l10n.t('unknown');
      item.tooltip = md(
        [
          `**${escapeMd(d.name)}**`,
          vscode.l10n.t('Model: {0}', escapeMd(model || unknown)),
          dataPlane ? vscode.l10n.t('Scale: {0}', escapeMd(sku || unknown)) : vscode.l10n.t('SKU: {0}', escapeMd(sku || unknown)),
          limits,
          d.provisioningState ? vscode.l10n.t('State: {0}', escapeMd(d.provisioningState)) : '',
          d.source === 'models' ? `_${vscode.l10n.t('Listed from the models API: this name may not be a deployment.')}_` : '',
          chat ? '' : `_${vscode.l10n.t('Not a chat model: the chat pickers do not offer it.')}_`,
        ],
      );
      item.iconPath = new vscode.ThemeIcon('hubot');
      // Open Chat shows on chat deployments only (the same test as the chat pickers').
      item.contextValue = chat ? 'deployment' : 'deployment.noChat';
      const skuSaid = sku ? `, ${dataPlane ? vscode.l10n.t('scale {0}', sku) : sku}` : '';
      item.accessibilityInformation = { label: `${vscode.l10n.t('Deployment {0}, model {1}', d.name, model || unknown)}${skuSaid}` };
      return item;
    }
    case 'webhookEndpoint': {
      const e = node.endpoint;
      const look = node.rotation && rotationLook(node.rotation.role);
      const rotating = look?.state;
      // In a rotation both rows have one name and URL: the side goes first, where a narrow sidebar does not cut it.
      const name = rowText(e.name || e.id);
      const item = new vscode.TreeItem(look ? look.label(name) : name, vscode.TreeItemCollapsibleState.None);
      item.id = `webhook:${node.connection.id}:${e.id}`;
      item.description = rotating ? `${rotating} · ${rowText(e.url, 300)}` : rowText(e.url, 300);
      const r = node.rotation;
      const secret = node.hasSecret
        ? vscode.l10n.t('Signing secret: kept in secret storage')
        : e.signing_secret_hint
          ? vscode.l10n.t('Signing secret: not stored here (hint {0})', escapeMd(e.signing_secret_hint))
          : vscode.l10n.t('Signing secret: not stored here');
      item.tooltip = md([
        `**${escapeMd(e.name || e.id)}**`,
        rotating
          ? vscode.l10n.t('Rotation in progress: {0}. Both secrets are accepted until you finish (delete the old endpoint) or cancel (delete the new one).', rotating)
          : '',
        r ? (r.role === 'replacement' ? vscode.l10n.t('Replaces: {0}', escapeMd(r.rotation.oldId)) : vscode.l10n.t('Replaced by: {0}', escapeMd(r.rotation.newId))) : '',
        `ID: ${escapeMd(e.id)}`,
        `URL: ${escapeMd(e.url)}`,
        vscode.l10n.t('Events: {0}', escapeMd(e.event_types.join(', ')) || vscode.l10n.t('none')),
        secret,
      ]);
      item.iconPath = look ? new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color)) : new vscode.ThemeIcon('radio-tower');
      item.contextValue = `webhookEndpoint${node.hasSecret ? '.secret' : ''}${node.rotation ? '.rotating' : ''}`;
      const said = vscode.l10n.t('Webhook endpoint {0}', e.name);
      item.accessibilityInformation = { label: `${said}${rotating ? `, ${rotating}` : ''}, ${e.url}, ${vscode.l10n.t('events {0}', e.event_types.join(', '))}` };
      return item;
    }
    case 'message':
      return messageItem(node);
  }
}

function messageItem({ parent, kind, text, detail, remaining }: MessageNode): vscode.TreeItem {
  // An error row says what the service answered: one line here, all of it (plain text) in the tooltip.
  const item = new vscode.TreeItem(rowText(text), vscode.TreeItemCollapsibleState.None);
  item.id = `${kind}:${parent.kind}:${parent.connection.id}`;
  item.tooltip = cutText(detail ?? text, 2000);
  const icons = { loading: 'loading~spin', error: 'error', empty: 'info', more: 'ellipsis' } as const;
  item.iconPath = new vscode.ThemeIcon(icons[kind], kind === 'error' ? new vscode.ThemeColor('errorForeground') : undefined);
  item.contextValue = `message.${kind}`;
  if (kind === 'error') {
    item.description = vscode.l10n.t('Click to retry');
    item.command = { command: Commands.refreshNode, title: vscode.l10n.t('Retry'), arguments: [parent] };
  }
  if (kind === 'more') {
    item.description = remaining !== undefined ? vscode.l10n.t('{0} more', remaining) : undefined;
    item.command = { command: Commands.loadMore, title: vscode.l10n.t('Load More'), arguments: [parent] };
  }
  const create =
    parent.type === 'jobGroup'
      ? groupLook(parent.kind)
      : parent.kind === 'webhookEndpoints'
        ? { create: Commands.createWebhookEndpoint, label: vscode.l10n.t('Create Webhook Endpoint') }
        : undefined;
  if (kind === 'empty' && create?.create) item.command = { command: create.create, title: create.label, arguments: [parent] };
  return item;
}
