/** AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY: offered as a connection when set and not imported yet. */
import * as vscode from 'vscode';
import { normalizeEndpoint } from '../../service/connection';
import type { ConnectionInfo } from '../connections/connectionStore';
import { Commands, ContextKeys } from '../contributions';
import { registerSecret } from '../log';
import type { Services } from '../services';
import { setContext } from '../settings';
import { addConnection } from './connections';

const ENV_ENDPOINT = 'AZURE_OPENAI_ENDPOINT';
const ENV_KEY = 'AZURE_OPENAI_API_KEY';

/** The endpoint AZURE_OPENAI_ENDPOINT names, as connections store it; none when unset or not a URL. */
function environmentEndpoint(): string | undefined {
  const raw = process.env[ENV_ENDPOINT];
  try {
    return raw ? normalizeEndpoint(raw) : undefined;
  } catch {
    return undefined;
  }
}

/** AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY, when both are set and not imported yet. */
export function environmentConnection(s: Services): { endpoint: string; apiKey: string } | undefined {
  const endpoint = environmentEndpoint();
  const apiKey = process.env[ENV_KEY];
  if (!endpoint || !apiKey) return undefined;
  registerSecret(apiKey);
  return s.store.findByEndpoint(endpoint) ? undefined : { endpoint, apiKey };
}

export async function updateEnvironmentContext(s: Services): Promise<void> {
  await setContext(ContextKeys.envConnectionAvailable, !!environmentConnection(s));
}

export async function importFromEnvironment(s: Services): Promise<ConnectionInfo | undefined> {
  const env = environmentConnection(s);
  if (!env) {
    const endpoint = environmentEndpoint();
    const imported = endpoint && s.store.findByEndpoint(endpoint);
    void vscode.window.showInformationMessage(
      imported
        ? vscode.l10n.t('{0} is already a connection.', ENV_ENDPOINT)
        : vscode.l10n.t('Set {0} and {1} in the environment VS Code starts from, then try again.', ENV_ENDPOINT, ENV_KEY),
    );
    return undefined;
  }
  return addConnection(s, { endpoint: env.endpoint, apiKey: env.apiKey, label: vscode.l10n.t('{0} (environment)', new URL(env.endpoint).host) });
}

/** Offers the import once per window when the environment holds a connection not imported yet. */
export async function offerEnvironmentImport(s: Services): Promise<void> {
  await updateEnvironmentContext(s);
  const env = environmentConnection(s);
  if (!env) return;
  const importIt = vscode.l10n.t('Import');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('{0} is set to {1}. Add it as a connection? The key from {2} goes to secret storage.', ENV_ENDPOINT, env.endpoint, ENV_KEY),
    importIt,
    vscode.l10n.t('Not Now'),
  );
  if (choice === importIt) await vscode.commands.executeCommand(Commands.importFromEnvironment);
}
