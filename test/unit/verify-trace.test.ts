/** The verdict trace the inspector shows: what arrived, what each held secret expects, and why. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { KnownSecret } from '../../src/webhooks/store/records';
import { generateSecret, secretKey, verify } from '../../src/webhooks/signature';
import { traceVerification } from '../../src/webhooks/inspect/trace';

const secret = generateSecret();
const known: KnownSecret[] = [{ endpointId: 'we_1', secret }];
const NOW = 1_700_000_000_000;
const sign = (id: string, ts: string, body: string) => createHmac('sha256', secretKey(secret)).update(`${id}.${ts}.${body}`).digest('base64');
const signed = { object: 'event', id: 'evt_1', data: { id: 'resp_1' } };
const compact = JSON.stringify(signed);
const pretty = JSON.stringify(signed, null, 2);

describe('the verdict trace', () => {
  it('shows at most five received signatures as short prefixes, counts the rest, and cuts unknown schemes too', () => {
    const v1 = Array.from({ length: 6 }, (_, i) => `v1,${String(i).repeat(44)}`);
    const header = [...v1, 'v2,abcdefghijklmnop'].join(' ');
    const t = traceVerification({ headers: { 'webhook-id': 'm', 'webhook-timestamp': '1700000000', 'webhook-signature': header }, body: Buffer.from('{}'), known, toleranceSeconds: 300, now: NOW });
    assert.deepEqual(t.received, ['v1,00000000…', 'v1,11111111…', 'v1,22222222…', 'v1,33333333…', 'v1,44444444…']);
    assert.equal(t.receivedMore, 2);
    const other = traceVerification({ headers: { 'webhook-signature': 'v2,abcdefghijklmnop v1' }, body: Buffer.from('{}'), known, toleranceSeconds: 300, now: NOW });
    assert.deepEqual(other.received, ['v2,abcdefgh…', 'v1…']);
    assert.equal(other.receivedMore, undefined);
  });

  it('a missing header is tried as empty, as verifiers do; no signature header shows none; a timestamp that is not a number has no skew', () => {
    // Signed over an empty id: the secret still matches, the header is reported missing.
    const t = traceVerification({
      headers: { 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${sign('', '1700000000', compact)}` },
      body: Buffer.from(compact),
      known,
      toleranceSeconds: 300,
      now: NOW,
    });
    assert.deepEqual([t.missingHeaders, t.tried[0].matched, t.skewSeconds], [['webhook-id'], true, 0]);
    const noTs = traceVerification({ headers: { 'webhook-id': 'm', 'webhook-signature': `v1,${sign('m', '', compact)}` }, body: Buffer.from(compact), known, toleranceSeconds: 300, now: NOW });
    assert.deepEqual([noTs.missingHeaders, noTs.tried[0].matched, noTs.skewSeconds], [['webhook-timestamp'], true, undefined]);
    const bare = traceVerification({ headers: {}, body: Buffer.from(compact), known, toleranceSeconds: 300, now: NOW });
    assert.deepEqual([bare.received, bare.missingHeaders.length], [[], 3]);
    for (const ts of ['1700000000x', 'x1700000000']) {
      assert.equal(traceVerification({ headers: { 'webhook-timestamp': ts }, body: Buffer.from('{}'), known, toleranceSeconds: 300, now: NOW }).skewSeconds, undefined, ts);
    }
  });

  it('looks for a re-serialized body only when asked, with every header there and no secret matching; a body that is not JSON is no such case', () => {
    const headers = (id: string) => ({ 'webhook-id': id, 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${sign(id, '1700000000', compact)}` });
    const arrived = Buffer.from(pretty);
    const found = traceVerification({ headers: headers('m'), body: arrived, known, toleranceSeconds: 300, now: NOW, lookForReserialization: true });
    assert.equal(found.reserialized?.form, 'compact JSON');
    assert.equal(traceVerification({ headers: headers('m'), body: arrived, known, toleranceSeconds: 300, now: NOW }).reserialized, undefined, 'not asked');
    // The id header missing (signed over an empty id): a missing header is the finding, not the body.
    const { 'webhook-id': _id, ...noId } = headers('');
    assert.equal(
      traceVerification({ headers: noId, body: arrived, known, toleranceSeconds: 300, now: NOW, lookForReserialization: true }).reserialized,
      undefined,
    );
    const notJson = traceVerification({ headers: headers('m'), body: Buffer.from('not json'), known, toleranceSeconds: 300, now: NOW, lookForReserialization: true });
    assert.equal(notJson.reserialized, undefined);
  });
  it('reuses the HMACs verification computed, each for its own secret: the same trace as computing them again', () => {
    const three: KnownSecret[] = [{ endpointId: 'we_a', secret: generateSecret() }, { endpointId: 'we_b', secret }, { endpointId: 'we_c', secret: generateSecret() }];
    const headers = { 'webhook-id': 'm', 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${sign('m', '1700000000', compact)}` };
    const body = Buffer.from(compact);
    const macs: Array<Buffer | undefined> = [];
    const result = verify({ headers, body, secrets: three.map((k) => k.secret), now: NOW, macs });
    // Verification stops at the secret that matched: the third is left for the trace.
    assert.deepEqual([result, macs.length], [{ ok: true, secretIndex: 1 }, 2]);
    const input = { headers, body, known: three, toleranceSeconds: 300, now: NOW };
    const reused = traceVerification({ ...input, macs });
    assert.deepEqual(reused, traceVerification(input));
    assert.deepEqual(reused.tried.map((t) => t.matched), [false, true, false]);
  });
});
