/**
 * How the tunnel's health shows: a line in the output channel for each step, the status bar
 * while it is reopening or down, and the Webhook Events view's message. The core's keeper owns
 * the health; this only says it.
 */
import * as vscode from 'vscode';
import type { TunnelMoved, TunnelStatus } from '../../webhooks/session/listeningSession';

const PROVIDER_SETTING = 'aoaiWorkbench.tunnel.provider';

export function logTunnelHealth(output: vscode.LogOutputChannel, { label, health }: TunnelStatus): void {
  switch (health.kind) {
    case 'reopening':
      if (health.attempt === 1) output.warn(`The tunnel (${label}) dropped (${health.reason}): reopening it (attempt 1 of ${health.attempts}).`);
      else output.info(`Reopening the tunnel (${label}): attempt ${health.attempt} of ${health.attempts}; the last one failed: ${health.reason}.`);
      return;
    case 'open':
      output.info(`The tunnel (${label}) is open again at ${health.url}.`);
      return;
    case 'failed':
      output.error(`The tunnel (${label}) could not be reopened after ${health.attempts} ${health.attempts === 1 ? 'attempt' : 'attempts'} (${health.reason}).`);
      output.error(`Deliveries no longer reach the listener: run "Stop Listening", then "Start Listening", or pick another tunnel in "${PROVIDER_SETTING}".`);
      return;
    case 'stopped':
      return;
  }
}

export function logTunnelMove(output: vscode.LogOutputChannel, m: TunnelMoved): void {
  const url = `${m.url}/webhook`;
  output.info(`The tunnel (${m.label}) has a new URL: ${m.url} (was ${m.previous}).`);
  for (const e of m.endpoints) {
    if (e.error === undefined) output.info(`Endpoint ${e.endpointId} now points at ${url}.`);
    else output.error(`Could not point endpoint ${e.endpointId} at ${url}: ${e.error}`);
  }
  if (!m.endpoints.length) output.warn(`No endpoint was pointed at the listener: point yours at ${url}.`);
}

/** The status bar while the tunnel is not open (undefined: the usual "Listening" item). */
export function tunnelStatusBar(tunnel: TunnelStatus | undefined, count: number): { text: string; said: string; background?: vscode.ThemeColor } | undefined {
  const health = tunnel?.health;
  if (health?.kind === 'reopening') {
    return {
      text: `$(sync~spin) ${vscode.l10n.t('Reopening tunnel · {0}', count)}`,
      said: vscode.l10n.t('The tunnel ({0}) dropped: reopening it (attempt {1} of {2}).', tunnel!.label, health.attempt, health.attempts),
    };
  }
  if (health?.kind === 'failed') {
    return {
      text: `$(warning) ${vscode.l10n.t('Tunnel down · {0}', count)}`,
      said: tunnelDownText(tunnel!.label),
      background: new vscode.ThemeColor('statusBarItem.warningBackground'),
    };
  }
  return undefined;
}

function tunnelDownText(label: string): string {
  return vscode.l10n.t(
    'The tunnel ({0}) dropped and could not be reopened: deliveries no longer arrive. Run "Stop Listening", then "Start Listening", or pick another tunnel in "{1}".',
    label,
    PROVIDER_SETTING,
  );
}

/** The Webhook Events view's message while the tunnel is not open (undefined: the usual one). */
export function tunnelViewMessage(tunnel: TunnelStatus | undefined): string | undefined {
  const health = tunnel?.health;
  if (health?.kind === 'reopening') {
    return vscode.l10n.t('The tunnel ({0}) dropped: reopening it (attempt {1} of {2}). Deliveries sent meanwhile do not arrive.', tunnel!.label, health.attempt, health.attempts);
  }
  if (health?.kind === 'failed') return tunnelDownText(tunnel!.label);
  return undefined;
}
