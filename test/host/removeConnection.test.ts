/** Removing a connection leaves nothing of it behind in SecretStorage or in the rotation list. */
import assert from 'node:assert/strict';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { PendingRotation } from '../../src/webhooks/endpoints/rotation';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('removing a connection', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Removed'));
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  it('deletes its API key, its endpoints\' signing secrets and its rotations; another connection keeps its own', async () => {
    const api = await workbench();
    const secrets = api.services.context.secrets;
    const started = await exec<{ endpointId: string }>('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'app', eventTypes: ['batch.completed'] } });
    const r = (await exec<PendingRotation>('rotateSigningSecret', { connectionId: conn.id, endpointId: started!.endpointId, confirm: false, handOver: { kind: 'later' } }))!;
    await exec('stopListening', { deleteEndpoint: false });
    // A second connection to the same service, with a secret of its own under the same endpoint id.
    const other = (await exec<ConnectionInfo>('addConnection', { endpoint: `${emu.url}/`, apiKey: emu.apiKey, label: 'Kept' }))!;
    await api.services.store.storeSigningSecret(other.id, started!.endpointId, 'whsec_a2VwdC1zZWNyZXQtb2YtYW5vdGhlcg==');
    const ofConn = async () => (await secrets.keys()).filter((k) => k.includes(conn.id));
    assert.equal((await ofConn()).length, 3, 'its key and two signing secrets (the old endpoint and its replacement) are stored');
    assert.deepEqual(api.services.endpoints.rotations().map((x) => x.newId), [r.newId]);

    assert.equal(await exec('removeConnection', { connectionId: conn.id }), true);
    assert.deepEqual(await ofConn(), [], 'nothing of the removed connection is left in secret storage');
    assert.equal(await api.services.store.signingSecret(conn.id, r.newId), undefined);
    await eventually(() => api.services.endpoints.rotations().length === 0 || undefined);
    assert.equal(api.services.context.globalState.get('aoaiWorkbench.webhookRotations'), undefined, 'no rotation state is left');
    assert.match((await api.services.store.signingSecret(other.id, started!.endpointId)) ?? '', /^whsec_/, 'the other connection\'s secret is kept');
    assert.ok(await api.services.store.apiKey(other.id), 'and its key');
  });
});
