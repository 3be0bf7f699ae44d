/** Choosing the tunnel in front of the webhook listener (the `tunnel.provider` setting). */
import * as vscode from 'vscode';
import type { ProviderChoice } from '../contributions';
import { setting, updateSetting } from '../settings';

const tunnelChoices = (): Array<{ id: Exclude<ProviderChoice, 'none'>; label: string; detail: string }> => [
  { id: 'cloudflared', label: vscode.l10n.t('Cloudflare quick tunnel'), detail: vscode.l10n.t('No account: cloudflared on PATH, or downloaded when you agree.') },
  {
    id: 'localtunnel',
    label: 'localtunnel',
    // Its relay to this machine is a bare TCP socket: say so before anyone picks it.
    detail: [
      vscode.l10n.t('No account: the public loca.lt, or your own server ("{0}").', 'aoaiWorkbench.tunnel.localtunnelHost'),
      vscode.l10n.t('Deliveries go from that server to this machine over plain TCP, unencrypted.'),
    ].join(' '),
  },
  { id: 'ngrok', label: 'ngrok', detail: vscode.l10n.t('An ngrok account, its authtoken and the ngrok agent on PATH.') },
  { id: 'devtunnel', label: 'Microsoft Dev Tunnels', detail: vscode.l10n.t('The devtunnel CLI, signed in ("devtunnel user login").') },
  { id: 'manual', label: vscode.l10n.t('Manual URL'), detail: vscode.l10n.t('A public URL you forward to the listener yourself ("{0}").', 'aoaiWorkbench.tunnel.manualUrl') },
];

/** Lets the user pick the tunnel setting; true when it changed. */
export async function chooseTunnelProvider(current: ProviderChoice = setting('tunnel.provider')): Promise<boolean> {
  const pick = await vscode.window.showQuickPick(
    tunnelChoices().map((c) => ({ ...c, description: c.id === current ? vscode.l10n.t('current') : undefined })),
    { title: vscode.l10n.t('Tunnel for the webhook listener'), placeHolder: vscode.l10n.t('How deliveries reach VS Code from the internet') },
  );
  if (!pick || pick.id === current) return false;
  await updateSetting('tunnel.provider', pick.id);
  if (pick.id === 'manual' && !setting('tunnel.manualUrl')) {
    const url = await vscode.window.showInputBox({
      title: vscode.l10n.t('Public URL that forwards to the listener'),
      placeHolder: 'https://…',
      ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : vscode.l10n.t('Enter an http(s):// URL.')),
    });
    if (!url) return false;
    await updateSetting('tunnel.manualUrl', url.trim());
  }
  return true;
}
