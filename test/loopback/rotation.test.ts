/**
 * Rotating a signing secret against the emulator: a replacement endpoint like the old one, both
 * secrets verifying real deliveries during the overlap, then only the new one (finish) or only
 * the old one (cancel).
 */
import assert from 'node:assert/strict';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { WebhookEndpoint } from '../../src/service/types';
import { WebhookListener } from '../../src/webhooks/receive/listener';
import type { DeliveryRecord, KnownSecret } from '../../src/webhooks/store/records';
import { beginRotation, cancelRotation, finishRotation, rotationRole, type RotationEndpoints } from '../../src/webhooks/endpoints/rotation';
import { closeAll, emulatorClient } from '../support/emulatorClient';

describe('rotating a webhook signing secret', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let listener: WebhookListener;
  /** The secrets held, by endpoint id: what SecretStorage holds in the extension. */
  const held = new Map<string, string>();
  const records: DeliveryRecord[] = [];
  const ops: RotationEndpoints = {
    create: async (input) => {
      const { signing_secret, ...endpoint } = await client.createWebhookEndpoint(input);
      held.set(endpoint.id, signing_secret!);
      return endpoint;
    },
    delete: async (id) => {
      await client.deleteWebhookEndpoint(id);
      held.delete(id);
    },
  };
  const endpoints = async () => (await client.listWebhookEndpointsPage()).data;
  /** Emits an event on the service and returns the verdicts of the deliveries it caused. */
  const verdicts = async (type: string) => {
    const before = records.length;
    const res = await fetch(`${emu.url}/emulator/events`, {
      method: 'POST',
      headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type, data: { id: 'batch_1' } }),
    });
    const { deliveries } = (await res.json()) as { deliveries: unknown[] };
    assert.equal(records.length - before, deliveries.length, 'every delivery reached a verdict before the service answered');
    return records.slice(before).map((r) => `${r.endpointId ?? '-'}:${r.verdict}`).sort();
  };

  before(async () => {
    ({ emu, client } = await emulatorClient());
    listener = new WebhookListener({
      secrets: (): KnownSecret[] => [...held].map(([endpointId, secret]) => ({ endpointId, secret })),
      onDelivery: (r) => records.push(r),
    });
    await listener.start();
  });
  after(async () => {
    await listener.stop();
    await closeAll(client, emu);
  });

  async function original(name: string): Promise<WebhookEndpoint> {
    return ops.create({ name, url: `${listener.url}/webhook`, event_types: ['batch.completed', 'batch.failed'] });
  }

  it('the replacement is like the old endpoint; both secrets verify during the overlap; finishing leaves the new one alone', async () => {
    const old = await original('app');
    const r = await beginRotation(ops, 'conn-1', old, 1_700_000_000_000);
    assert.deepEqual(r, { connectionId: 'conn-1', oldId: old.id, newId: r.newId, name: 'app', url: old.url, startedAt: 1_700_000_000_000 });
    const replacement = (await endpoints()).find((e) => e.id === r.newId)!;
    assert.deepEqual([replacement.name, replacement.url, replacement.event_types], [old.name, old.url, old.event_types]);
    assert.notEqual(held.get(r.newId), held.get(old.id), 'a new secret');
    assert.deepEqual(rotationRole([r], 'conn-1', old.id)?.role, 'replaced');
    assert.deepEqual(rotationRole([r], 'conn-1', r.newId)?.role, 'replacement');
    assert.equal(rotationRole([r], 'conn-2', r.newId), undefined, 'another connection');
    assert.equal(rotationRole([r], 'conn-1', 'we_other'), undefined, 'an endpoint in no rotation');

    // Both endpoints deliver each event during the overlap, each verified with its own secret.
    assert.deepEqual(await verdicts('batch.completed'), [`${old.id}:verified`, `${r.newId}:verified`].sort());

    // The app still holding the old secret would now be wrong: keep only what an app rotated to.
    const oldSecret = held.get(old.id)!;
    await finishRotation(ops, r);
    assert.deepEqual((await endpoints()).map((e) => e.id).filter((id) => id === old.id || id === r.newId), [r.newId]);
    assert.equal(held.has(old.id), false);
    assert.deepEqual(await verdicts('batch.failed'), [`${r.newId}:verified`]);
    assert.ok(![...held.values()].includes(oldSecret));
    await ops.delete(r.newId);
  });

  it('cancelling deletes the replacement and its secret; the old endpoint goes on', async () => {
    const old = await original('keep');
    const r = await beginRotation(ops, 'conn-1', old);
    await cancelRotation(ops, r);
    assert.deepEqual((await endpoints()).map((e) => e.id), [old.id]);
    assert.deepEqual([...held.keys()], [old.id]);
    assert.deepEqual(await verdicts('batch.completed'), [`${old.id}:verified`]);
    await ops.delete(old.id);
  });

  it('finishing when the old endpoint is gone already (deleted elsewhere) still finishes; other failures do not', async () => {
    const old = await original('gone');
    const r = await beginRotation(ops, 'conn-1', old);
    await client.deleteWebhookEndpoint(old.id);
    await finishRotation(ops, r);
    assert.deepEqual((await endpoints()).map((e) => e.id), [r.newId]);
    const failing: RotationEndpoints = { ...ops, delete: () => Promise.reject(Object.assign(new Error('Service unavailable'), { status: 503 })) };
    await assert.rejects(cancelRotation(failing, r), /Service unavailable/);
    assert.deepEqual((await endpoints()).map((e) => e.id), [r.newId], 'nothing changed');
    await ops.delete(r.newId);
  });

  it('a replacement the service refuses to create leaves nothing behind', async () => {
    const before = await endpoints();
    const bad: WebhookEndpoint = { id: 'we_x', object: 'webhook.endpoint', name: 'bad', url: 'ftp://nowhere', event_types: ['batch.completed'], created_at: 1 } as WebhookEndpoint;
    await assert.rejects(beginRotation(ops, 'conn-1', bad), (e: unknown) => (e as { status?: number }).status === 400);
    assert.deepEqual(await endpoints(), before);
  });
});
