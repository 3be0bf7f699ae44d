import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArmClient, checkAccountId } from '../../src/service/arm';
import { normalizeEndpoint } from '../../src/service/connection';

describe('where a key or token may be sent', () => {
  it('plain http is refused for a remote endpoint and allowed for loopback (the emulator) only', () => {
    for (const remote of ['http://myres.openai.azure.com', 'http://10.0.0.5:8080', 'http://127.example.com'])
      assert.throws(() => normalizeEndpoint(remote), /must use https:\/\/.*clear text/);
    for (const local of ['http://127.0.0.1:8080', 'http://localhost:5000/openai/v1', 'http://[::1]:9', 'http://emu.localhost'])
      assert.match(normalizeEndpoint(local), /^http:\/\//);
    assert.equal(normalizeEndpoint('https://myres.openai.azure.com'), 'https://myres.openai.azure.com');
  });

  it('an account id from settings is accepted only in Resource Manager form', () => {
    const good = '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/rg-emulator/providers/Microsoft.CognitiveServices/accounts/emulator-openai';
    assert.equal(checkAccountId(`${good}/`), good);
    for (const bad of [
      '@evil.example/x',
      `${good}@evil.example`,
      `${good}?x=1`,
      `${good}/../../../other`,
      '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Web/sites/x',
      `//evil.example${good}`,
    ])
      assert.throws(() => checkAccountId(bad), /is not an Azure OpenAI account id/);
  });

  it('an account id like "@host/…" never sends the token to that host', async () => {
    let hits = 0;
    const evil = createServer((_q, res) => {
      hits++;
      res.end('{"value":[]}');
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const arm = new ArmClient({ endpoint: 'http://localhost:1', auth: { kind: 'bearer', getToken: async () => 'secret-token' }, retry: { maxRetries: 0 } });
    try {
      await assert.rejects(arm.listDeployments(`@127.0.0.1:${(evil.address() as AddressInfo).port}/x`));
      assert.equal(hits, 0);
    } finally {
      await arm.close();
      evil.close();
    }
  });
});
