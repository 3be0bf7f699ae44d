/**
 * Inline suggestions, bundled apart as dist/inline.js (esbuild.mjs) and required on first use
 * through `loadInline()` (src/vscode/bundles.ts): activation loads none of it, and nothing of it
 * runs until the user picks a deployment. What the extension owns comes in as an InlineHost.
 */
import * as vscode from 'vscode';
import { askDeployment } from '../commands/deploymentItem';
import { InlineController, UNTRUSTED_ALLOWED } from './controller';
import type { InlineHost } from './host';

let controller: InlineController | undefined;

/** Starts inline suggestions (once); the controller follows the settings from then on. */
export function startInline(host: InlineHost): InlineController {
  controller ??= new InlineController(host);
  return controller;
}

/** The running controller, if any. */
export const currentInline = (): InlineController | undefined => controller;

export function stopInline(): void {
  controller?.dispose();
  controller = undefined;
}

/** A tree item (duck-typed: the bundle has its own copy of no tree class) or `{ connectionId, deployment }`. */
function given(arg: unknown): { connectionId: string; deployment: string } | undefined {
  const node = arg as { connection?: { id?: unknown }; deployment?: { name?: unknown } } | undefined;
  if (typeof node?.connection?.id === 'string' && typeof node.deployment?.name === 'string') return { connectionId: node.connection.id, deployment: node.deployment.name };
  const args = arg as { connectionId?: unknown; deployment?: unknown } | undefined;
  if (typeof args?.connectionId === 'string' && typeof args.deployment === 'string') return { connectionId: args.connectionId, deployment: args.deployment };
  return undefined;
}

/** *Use Deployment for Inline Suggestions…*: the given deployment, or the one picked; suggestions turn on. */
export async function pickInlineDeployment(host: InlineHost, arg: unknown): Promise<boolean> {
  let choice = given(arg);
  if (!choice) {
    const picked = await askDeployment(() => host.deployments(), {
      title: vscode.l10n.t('Use a deployment for inline suggestions'),
      placeHolder: vscode.l10n.t('The code around the cursor is sent to it as you type'),
    });
    if (!picked) return false;
    choice = { connectionId: picked.connectionId, deployment: picked.deployment };
  }
  await host.updateSetting('inline.connection', choice.connectionId);
  await host.updateSetting('inline.deployment', choice.deployment);
  await host.updateSetting('inline.enabled', true);
  startInline(host);
  return true;
}

/** The status bar item's click: on or off; in Restricted Mode, turning on asks to allow this folder. */
export async function toggleInline(host: InlineHost): Promise<void> {
  if (!host.setting('inline.deployment')) {
    await pickInlineDeployment(host, undefined);
    return;
  }
  const c = startInline(host);
  const doc = vscode.window.activeTextEditor?.document;
  const folder = doc && vscode.workspace.getWorkspaceFolder(doc.uri);
  if (c.on && folder && !c.trusted(doc.uri)) {
    const allow = vscode.l10n.t('Allow in This Folder');
    const question = vscode.l10n.t('This folder is in Restricted Mode: inline suggestions send nothing from it. Send the code around the cursor to {0} here?', c.deployment);
    if ((await vscode.window.showWarningMessage(question, { modal: true }, allow)) !== allow) return;
    await host.globalState.update(UNTRUSTED_ALLOWED, [...host.globalState.get<string[]>(UNTRUSTED_ALLOWED, []), folder.uri.toString()]);
    return;
  }
  await host.updateSetting('inline.enabled', !host.setting('inline.enabled'));
}
