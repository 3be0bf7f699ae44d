import assert from 'node:assert/strict';
import { CloudConfigError, resolveCloud } from '../../src/auth/clouds';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { ArmClient } from '../../src/service/arm';
import { AzureOpenAIClient } from '../../src/service/client';
import { EndpointError, isLoopbackHost, normalizeEndpoint } from '../../src/service/connection';

describe('"loopback" means this machine', () => {
  const custom = (resourceManagerEndpoint: string) => resolveCloud('Custom', { authorityHost: 'https://login.example.test', resourceManagerEndpoint });

  it('a name that starts with 127. is not an address: plain http to it is refused for Resource Manager and for a connection', () => {
    for (const host of ['127.attacker.example', '127.0.0.1.attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io']) {
      assert.throws(() => custom(`http://${host}`), (e: Error) => e instanceof CloudConfigError && /must use https:\/\//.test(e.message), host);
      assert.throws(() => normalizeEndpoint(`http://${host}:8080`), (e: Error) => e instanceof EndpointError && /must use https:\/\//.test(e.message), host);
    }
  });

  it('loopback addresses in any form the URL parser accepts, and names under localhost, may use http', () => {
    for (const url of ['http://127.0.0.1:8443', 'http://127.1.2.3', 'http://[::1]:8443', 'http://[::ffff:127.0.0.1]:1', 'http://0x7f.1:80', 'http://localhost:1', 'http://arm.localhost:2']) {
      assert.equal(custom(url).resourceManagerEndpoint, url, url);
      assert.doesNotThrow(() => normalizeEndpoint(url), url);
    }
    for (const host of ['10.0.0.1', '[::2]', '[::ffff:10.0.0.1]', '128.0.0.1', 'example.com', 'localhost.com']) assert.equal(isLoopbackHost(host), false, host);
  });

  describe('a .localhost name reaches loopback whatever the system resolver says', () => {
    let emu: Emulator;
    before(async () => {
      emu = await startEmulator();
    });
    after(() => emu.close());

    it('the key goes to the emulator on 127.0.0.1 for http://aoai.localhost:PORT (data plane and Resource Manager)', async () => {
      const port = new URL(emu.url).port;
      const client = new AzureOpenAIClient({ endpoint: `http://aoai.localhost:${port}/openai/v1/`, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
      try {
        assert.ok((await client.listDataPlaneDeployments()).length > 0);
      } finally {
        await client.close();
      }
      // Resource Manager answers (401 for a token it does not know): it was reached, not looked up elsewhere.
      const arm = new ArmClient({ endpoint: `http://arm.localhost:${port}`, auth: { kind: 'bearer', plane: 'management', getToken: async () => 'not-a-token' }, retry: { maxRetries: 0 } });
      await assert.rejects(arm.listSubscriptions(), (e: Error & { status?: number }) => e.status === 401);
    });
  });
});
