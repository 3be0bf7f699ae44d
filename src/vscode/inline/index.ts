/**
 * What activation holds of inline suggestions: two commands and a look at one setting. The rest
 * is dist/inline.js, loaded when a deployment is chosen (now or in an earlier session).
 */
import * as vscode from 'vscode';
import type { RequestReport } from '../../chat/engine/report';
import { loadNetwork } from '../bundles';
import { loadInline } from '../layerBundles';
import { command } from '../commands/registry';
import { Commands } from '../contributions';
import { logError } from '../log';
import type { Services } from '../services';
import { onDidChangeSettings, setting, updateSetting } from '../settings';
import type { InlineHost } from './host';

export function registerInline(s: Services, report: (r: RequestReport) => void): vscode.Disposable {
  const host: InlineHost = {
    setting,
    updateSetting,
    onDidChangeSettings,
    runChat: (...args) => loadNetwork().runChat(...args),
    report,
    logError,
    globalState: s.context.globalState,
    deployments: () => s.chat.deployments(),
    async target(connectionId, deployment) {
      const conn = s.store.get(connectionId);
      if (!conn) return undefined;
      const option = (await s.chat.deployments().catch(() => [])).find((o) => o.connectionId === conn.id && o.deployment === deployment);
      return { client: await s.clients.get(conn), connection: conn.id, deployment, model: option?.model, route: 'v1', apiVersion: conn.apiVersion };
    },
  };
  let started = false;
  const start = () => setting('inline.deployment') && (started = !!loadInline().startInline(host));
  start();
  return vscode.Disposable.from(
    command(Commands.useForInline, vscode.l10n.t('Could not choose the deployment for inline suggestions'), (arg) => loadInline().pickInlineDeployment(host, arg)),
    command(Commands.toggleInline, vscode.l10n.t('Could not turn inline suggestions on or off'), () => loadInline().toggleInline(host)),
    onDidChangeSettings(['inline.deployment'], start),
    { dispose: () => started && loadInline().stopInline() },
  );
}
