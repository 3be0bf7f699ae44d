/** Choosing the tunnel in front of the webhook listener (the `tunnel.provider` setting). */
import * as vscode from 'vscode';
import type { ProviderChoice } from '../contributions';
import { setting, updateSetting } from '../settings';

const TUNNEL_CHOICES: Array<{ id: Exclude<ProviderChoice, 'none'>; label: string; detail: string }> = [
  { id: 'localtunnel', label: 'localtunnel', detail: 'No account: the public loca.lt, or your own server ("aoaiWorkbench.tunnel.localtunnelHost").' },
  { id: 'cloudflared', label: 'Cloudflare quick tunnel', detail: 'No account: cloudflared on PATH, or downloaded when you agree.' },
  { id: 'ngrok', label: 'ngrok', detail: 'An ngrok account, its authtoken and the ngrok agent on PATH.' },
  { id: 'devtunnel', label: 'Microsoft Dev Tunnels', detail: 'The devtunnel CLI, signed in ("devtunnel user login").' },
  { id: 'manual', label: 'Manual URL', detail: 'A public URL you forward to the listener yourself ("aoaiWorkbench.tunnel.manualUrl").' },
];

/** Lets the user pick the tunnel setting; true when it changed. */
export async function chooseTunnelProvider(current: ProviderChoice = setting('tunnel.provider')): Promise<boolean> {
  const pick = await vscode.window.showQuickPick(
    TUNNEL_CHOICES.map((c) => ({ ...c, description: c.id === current ? 'current' : undefined })),
    { title: 'Tunnel for the webhook listener', placeHolder: 'How deliveries reach VS Code from the internet' },
  );
  if (!pick || pick.id === current) return false;
  await updateSetting('tunnel.provider', pick.id);
  if (pick.id === 'manual' && !setting('tunnel.manualUrl')) {
    const url = await vscode.window.showInputBox({
      title: 'Public URL that forwards to the listener',
      placeHolder: 'https://…',
      ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : 'Enter an http(s):// URL.'),
    });
    if (!url) return false;
    await updateSetting('tunnel.manualUrl', url.trim());
  }
  return true;
}
