/** The tunnel in front of the listener, built from the user's settings (the tunnel code loads on first use). */
import { isLoopbackHost } from '../../service/connection';
import type { TunnelProvider } from '../../tunnels/tunnel';
import { loadNetwork } from '../bundles';
import type { ProviderChoice } from '../contributions';
import { optionalSetting } from '../settings';

/**
 * The tunnel a connection gets. A local service (the emulator) needs none, unless one is asked
 * for by name (`tunnelForLocal`), e.g. to try a tunnel against the emulator.
 */
export function tunnelProviderFor(storageDir: string, endpoint: string, providerId: ProviderChoice, tunnelForLocal = false): TunnelProvider | undefined {
  const local = isLoopbackHost(new URL(endpoint).hostname);
  const id = local && !tunnelForLocal ? 'none' : providerId;
  const { CloudflaredTunnel, DevTunnel, LocalTunnel, ManualTunnel, NgrokTunnel } = loadNetwork();
  switch (id) {
    case 'none':
      return undefined;
    case 'manual':
      return new ManualTunnel(() => optionalSetting('tunnel.manualUrl'));
    case 'localtunnel':
      return new LocalTunnel(() => ({ host: optionalSetting('tunnel.localtunnelHost'), subdomain: optionalSetting('tunnel.localtunnelSubdomain') }));
    case 'cloudflared':
      return new CloudflaredTunnel(storageDir);
    case 'ngrok':
      return new NgrokTunnel();
    case 'devtunnel':
      return new DevTunnel();
  }
}
