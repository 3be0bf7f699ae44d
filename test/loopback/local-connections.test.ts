import assert from 'node:assert/strict';
import { startEmulator } from '../../src/emulator/server';
import { emulatorAnswers, localConnectionsToDrop } from '../../src/service/localConnections';

describe('local emulator connections shared by several windows', () => {
  it('a window drops only local connections whose emulator is gone, never another window\'s live one', async () => {
    const live = await startEmulator();
    const gone = await startEmulator();
    const goneUrl = gone.url;
    await gone.close();
    try {
      const keys: Record<string, string> = { other: live.apiKey, closed: gone.apiKey, mine: 'k' };
      const list = [
        { id: 'other', endpoint: live.url, local: true },
        { id: 'closed', endpoint: goneUrl, local: true },
        { id: 'mine', endpoint: 'http://127.0.0.1:1', local: true },
        { id: 'azure', endpoint: 'https://contoso.openai.azure.com' },
      ];
      const drop = await localConnectionsToDrop(list, 'http://127.0.0.1:1', (c) => emulatorAnswers(c.endpoint, keys[c.id]));
      assert.deepEqual(drop.map((c) => c.id), ['closed']);
    } finally {
      await live.close();
    }
  });

  it('an emulator answers only with its own key', async () => {
    const emu = await startEmulator();
    try {
      assert.equal(await emulatorAnswers(emu.url, emu.apiKey), true);
      assert.equal(await emulatorAnswers(emu.url, 'another-key'), false);
      assert.equal(await emulatorAnswers(emu.url, undefined), false);
    } finally {
      await emu.close();
    }
  });
});
