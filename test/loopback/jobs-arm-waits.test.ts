/** A Resource Manager deployment that fails, never settles, is given up on, or is deleted: against a scripted loopback server. */
import assert from 'node:assert/strict';
import { ArmClient } from '../../src/service/arm';
import { ServiceError } from '../../src/service/errors';
import { scripted, status, type Step } from '../support/scriptedServer';

const ACCOUNT = '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/rg/providers/Microsoft.CognitiveServices/accounts/acct';
const state = (s: string, code = 200): Step => (_q, res) =>
  res
    .writeHead(code, { 'content-type': 'application/json' })
    .end(JSON.stringify({ name: 'd', sku: { name: 'standard', capacity: 2 }, properties: { provisioningState: s, model: { name: 'm.ft-1', version: '1' } } }));
const gone: Step = (_q, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"DeploymentNotFound","message":"nope"}}');

async function withArm(steps: Step[], run: (arm: ArmClient) => Promise<void>) {
  const s = await scripted(steps);
  const arm = new ArmClient({ endpoint: s.url, auth: { kind: 'bearer', getToken: async () => 't' }, retry: { maxRetries: 0 } });
  try {
    await run(arm);
    return s;
  } finally {
    await arm.close();
    await s.close();
  }
}

describe('Resource Manager deployments: waiting for them', () => {
  it('puts the body the service documents and watches Accepted → Creating → Succeeded', async () => {
    const seen: string[] = [];
    const s = await withArm([state('Accepted', 201), state('Creating'), state('Succeeded')], async (arm) => {
      const d = await arm.deployments.put(ACCOUNT, 'dep', { model: 'm.ft-1', sku: 'standard', capacity: 2 }, { pollMs: 1, onProgress: (x) => seen.push(x) });
      assert.deepEqual(d, { name: 'dep', model: 'm.ft-1', modelVersion: '1', sku: 'standard', capacity: 2, provisioningState: 'Succeeded', source: 'arm' });
    });
    assert.deepEqual(seen, ['Accepted', 'Creating', 'Succeeded']);
    assert.equal(s.requests[0]!.method, 'PUT');
    assert.equal(s.requests[0]!.url, `${ACCOUNT}/deployments/dep?api-version=2024-10-01`);
    assert.deepEqual(JSON.parse(s.requests[0]!.body), { sku: { name: 'standard', capacity: 2 }, properties: { model: { format: 'OpenAI', name: 'm.ft-1', version: '1' } } });
    assert.deepEqual(s.requests.slice(1).map((r) => r.method), ['GET', 'GET']);
  });

  it('a deployment that ends Failed is an error that says so; one that never settles is given up with advice', async () => {
    await withArm([state('Creating', 201), state('Failed')], async (arm) => {
      await assert.rejects(
        arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 1 }, { pollMs: 1 }),
        (e: ServiceError) => /ended Failed/.test(e.message) && /Activity log/.test(e.message),
      );
    });
    const steps = Array.from({ length: 50 }, () => state('Creating'));
    await withArm(steps, async (arm) => {
      await assert.rejects(
        arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 1 }, { pollMs: 5, maxWaitMs: 20 }),
        (e: Error) => /"dep" was not ready after 1 min\. It may still finish: refresh the deployments/.test(e.message),
      );
    });
  });

  it('stops waiting when aborted; an answer with no state counts as done, no answer (404) as not yet', async () => {
    const abort = new AbortController();
    await withArm([state('Creating', 201)], async (arm) => {
      const p = arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 1 }, { pollMs: 10_000, signal: abort.signal, onProgress: () => setTimeout(() => abort.abort(), 5) });
      await assert.rejects(p, (e: ServiceError) => e.kind === 'aborted');
    });
    const plain: Step = (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"d"}');
    await withArm([plain], async (arm) => {
      const seen: string[] = [];
      const d = await arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 3, version: '2' }, { pollMs: 1, onProgress: (x) => seen.push(x) });
      assert.deepEqual([d.model, d.modelVersion, d.sku, d.capacity, d.provisioningState], ['m', '2', 's', 3, 'Succeeded']);
      assert.deepEqual(seen, ['Succeeded']);
    });
  });

  it('stops at once when cancelled between two looks, without waiting for the next one', async () => {
    const abort = new AbortController();
    await withArm([state('Creating', 201)], async (arm) => {
      const started = Date.now();
      const p = arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 1 }, { pollMs: 60_000, signal: abort.signal, onProgress: () => abort.abort() });
      await assert.rejects(p, (e: ServiceError) => e.kind === 'aborted');
      assert.ok(Date.now() - started < 10_000);
    });
  });

  it('sends the PUT again after a 503 (it is safe to repeat)', async () => {
    const s = await scripted([status(503), state('Succeeded')]);
    const arm = new ArmClient({ endpoint: s.url, auth: { kind: 'bearer', getToken: async () => 't' }, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    try {
      assert.equal((await arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 1 }, { pollMs: 1 })).provisioningState, 'Succeeded');
    } finally {
      await arm.close();
      await s.close();
    }
    assert.deepEqual(s.requests.map((r) => r.method), ['PUT', 'PUT']);
  });

  it('deletes again after a 503 (a delete is safe to repeat), and waits minutes by default, not moments', async () => {
    const s = await scripted([status(503), (_q, res) => res.writeHead(202).end(), state('Deleting'), state('Deleting'), state('Deleting'), gone]);
    const arm = new ArmClient({ endpoint: s.url, auth: { kind: 'bearer', getToken: async () => 't' }, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    try {
      await arm.deployments.delete(ACCOUNT, 'dep', { pollMs: 5 });
    } finally {
      await arm.close();
      await s.close();
    }
    assert.deepEqual(s.requests.map((r) => r.method), ['DELETE', 'DELETE', 'GET', 'GET', 'GET', 'GET']);
  });

  it('a deployment Resource Manager does not show yet right after the PUT is waited for', async () => {
    const seen: string[] = [];
    await withArm([state('Accepted', 201), gone, state('Succeeded')], async (arm) => {
      await arm.deployments.put(ACCOUNT, 'dep', { model: 'm', sku: 's', capacity: 1 }, { pollMs: 1, onProgress: (x) => seen.push(x) });
    });
    assert.deepEqual(seen, ['Accepted', 'Accepted', 'Succeeded']);
  });

  it('delete waits until the deployment is gone; a read that fails otherwise is reported', async () => {
    const seen: string[] = [];
    const s = await withArm([(_q, res) => res.writeHead(202).end(), state('Deleting'), gone], async (arm) => {
      await arm.deployments.delete(ACCOUNT, 'dep', { pollMs: 1, onProgress: (x) => seen.push(x) });
    });
    assert.deepEqual(s.requests.map((r) => r.method), ['DELETE', 'GET', 'GET']);
    assert.deepEqual(seen, ['Deleting', 'Deleted']);
    await withArm([(_q, res) => res.writeHead(200).end(), ...Array.from({ length: 30 }, () => state('Deleting'))], async (arm) => {
      await assert.rejects(arm.deployments.delete(ACCOUNT, 'dep', { pollMs: 5, maxWaitMs: 15 }), /not deleted after 1 min/);
    });
    await withArm([status(500)], async (arm) => {
      await assert.rejects(arm.deployments.get(ACCOUNT, 'dep'), (e: ServiceError) => e.status === 500);
    });
    await withArm([], async (arm) => {
      await assert.rejects(arm.deployments.put('/subscriptions/x/../other', 'dep', { model: 'm', sku: 's', capacity: 1 }), /is not an Azure OpenAI account id/);
    });
  });
});
