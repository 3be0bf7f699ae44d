/**
 * Compare Deployments…: pick 2–4 chat deployments of any connections (a QuickPick with several
 * picks; from a deployment's context menu, that one is picked already), then the compare panel.
 * Takes arguments too: `{ deployments: [{ connectionId, deployment }, …] }`.
 */
import * as vscode from 'vscode';
import { MAX_COLUMNS, MIN_COLUMNS } from '../../chat/compare/limits';
import type { Conversation } from '../../chat/conversation';
import type { DeploymentOption } from '../../chat/model';
import { deploymentDetails } from '../../chat/naming';
import { ComparePanel, type CompareColumn } from '../compare/comparePanel';
import type { Services } from '../services';
import { DeploymentNode } from '../tree/nodes';
import { resolveConnection } from './args';
import { deploymentItem } from './deploymentItem';

interface Picked {
  connectionId: string;
  deployment: string;
}

/** Chat deployments only: a batch deployment refuses live calls, and audio, image and embedding models do not chat. */
const NOT_CHAT = /embedding|dall-e|gpt-image|whisper|tts|transcribe|audio|realtime|sora|moderation/i;
export const isComparable = (o: DeploymentOption) => !NOT_CHAT.test(o.model || o.deployment) && !/batch/i.test(`${o.sku ?? ''} ${o.deployment}`);

const key = (p: Picked) => `${p.connectionId}/${p.deployment}`;

function given(arg: unknown): Picked[] | undefined {
  const list = (arg as { deployments?: unknown } | undefined)?.deployments;
  if (!Array.isArray(list)) return undefined;
  return list.filter((d): d is Picked => typeof d?.connectionId === 'string' && typeof d?.deployment === 'string');
}

async function pick(options: DeploymentOption[], preselected: Picked | undefined): Promise<Picked[] | undefined> {
  const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { option: DeploymentOption }>();
  qp.title = vscode.l10n.t('Compare deployments');
  qp.placeholder = vscode.l10n.t('Pick {0} to {1} deployments (Space to pick, Enter to compare)', MIN_COLUMNS, MAX_COLUMNS);
  qp.canSelectMany = true;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.items = options.map(deploymentItem);
  if (preselected) qp.selectedItems = qp.items.filter((i) => key(i.option) === key(preselected));
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const n = qp.selectedItems.length;
      if (n < MIN_COLUMNS || n > MAX_COLUMNS) {
        // Said in the title (the QuickPick has no validation message): the picker stays open.
        qp.title =
          n === 1
            ? vscode.l10n.t('Compare deployments: pick {0} to {1}; {2} is picked', MIN_COLUMNS, MAX_COLUMNS, n)
            : vscode.l10n.t('Compare deployments: pick {0} to {1}; {2} are picked', MIN_COLUMNS, MAX_COLUMNS, n);
        return;
      }
      resolve(qp.selectedItems.map((i) => ({ connectionId: i.option.connectionId, deployment: i.option.deployment })));
      qp.hide();
    });
    qp.onDidChangeSelection((items) => (qp.title = vscode.l10n.t('Compare deployments ({0} of {1}–{2} picked)', items.length, MIN_COLUMNS, MAX_COLUMNS)));
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

async function columnsOf(s: Services, picked: Picked[], options: DeploymentOption[]): Promise<CompareColumn[]> {
  return Promise.all(
    picked.map(async (p) => {
      const conn = s.store.get(p.connectionId);
      if (!conn) throw new Error(vscode.l10n.t('The connection of "{0}" no longer exists. Pick the deployments again.', p.deployment));
      const option = options.find((o) => key(o) === key(p));
      const id = key(p);
      return {
        head: { id, label: p.deployment, detail: [option ? deploymentDetails(option) : '', option?.connectionLabel ?? conn.label].filter(Boolean).join(' · ') },
        target: { id, client: await s.clients.get(conn), connection: conn.id, deployment: p.deployment, model: option?.model, version: option?.modelVersion, route: 'v1', apiVersion: conn.apiVersion },
        connectionLabel: option?.connectionLabel ?? conn.label,
        apiVersion: conn.apiVersion,
      };
    }),
  );
}

export async function compareDeployments(s: Services, arg: unknown): Promise<{ panel: ComparePanel } | undefined> {
  if (s.store.list().length === 0) {
    await resolveConnection(s, undefined, vscode.l10n.t('Compare deployments'));
    return undefined;
  }
  const all = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Listing deployments…') }, () => s.chat.deployments());
  const options = all.filter(isComparable);
  const preselected = arg instanceof DeploymentNode ? { connectionId: arg.connection.id, deployment: arg.deployment.name } : undefined;
  const picked = given(arg) ?? (options.length < MIN_COLUMNS ? undefined : await pick(options, preselected));
  if (!picked) {
    const few = vscode.l10n.t(
      'Compare needs at least {0} chat deployments; {1} could be listed. Add a connection, or start the local emulator.',
      MIN_COLUMNS,
      options.length,
    );
    if (options.length < MIN_COLUMNS) void vscode.window.showWarningMessage(few);
    return undefined;
  }
  if (picked.length < MIN_COLUMNS || picked.length > MAX_COLUMNS) {
    throw new Error(vscode.l10n.t('Compare takes {0} to {1} deployments; {2} were given.', MIN_COLUMNS, MAX_COLUMNS, picked.length));
  }
  const columns = await columnsOf(s, picked, all);
  const params = s.chat.active()?.conversation.params;
  const panel = ComparePanel.open(columns, {
    extensionUri: s.context.extensionUri,
    settings: {
      systemPrompt: params?.systemPrompt ?? 'You are a helpful assistant.',
      ...(params?.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params?.maxTokens !== undefined ? { maxTokens: params.maxTokens } : {}),
    },
    // Every request, source compare, in the usage log.
    onReport: s.usage.report,
    storage: s.context.globalStorageUri,
    openConversation: async (c: Conversation) => {
      await s.chat.conversations.save(c);
      await s.chat.reopen(c.id);
    },
  });
  return { panel };
}
