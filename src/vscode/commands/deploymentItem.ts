/** A deployment as a quick pick item, in the chat, inline and compare pickers. */
import * as vscode from 'vscode';
import type { DeploymentOption } from '../../chat/model';
import { deploymentDetails } from '../../chat/naming';
import { plainLine } from '../plainText';

/** Its name, model and connection are the service's and Azure's words: shown as text, no codicon. */
export const deploymentItem = (o: DeploymentOption) => ({
  label: plainLine(o.deployment),
  description: plainLine(deploymentDetails(o)) || undefined,
  detail: plainLine(o.connectionLabel),
  option: o,
});

/** Lists every chat deployment (a progress in the status bar) and asks for one; says so when none could be listed. */
export async function askDeployment(list: () => Promise<DeploymentOption[]>, options: vscode.QuickPickOptions): Promise<DeploymentOption | undefined> {
  const all = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Listing deployments…') }, list);
  if (!all.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No deployments could be listed. Check the connections in the Azure OpenAI view.'));
    return undefined;
  }
  return (await vscode.window.showQuickPick(all.map(deploymentItem), { matchOnDetail: true, ...options }))?.option;
}
