import assert from 'node:assert/strict';
import { diagnose, type EndpointInfo } from '../../src/webhooks/inspect/doctor';
import type { DeliveryRecord, KnownSecret } from '../../src/webhooks/store/records';
import { generateSecret, secretHint, signedHeaders } from '../../src/webhooks/signature';
import { traceVerification } from '../../src/webhooks/inspect/trace';

const NOW = 1_800_000_000_000;
const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'response.completed', created_at: 1, data: { id: 'resp_1' } });

/** The record the listener keeps for a delivery that arrived with these headers and bytes. */
function recordOf(headers: Record<string, string>, arrived: string, known: KnownSecret[], verdict: DeliveryRecord['verdict'] = 'rejected'): DeliveryRecord {
  const trace = traceVerification({ headers, body: Buffer.from(arrived), known, toleranceSeconds: 300, now: NOW, lookForReserialization: verdict === 'rejected' });
  return { id: 'r', receivedAt: NOW, verdict, status: verdict === 'rejected' ? 400 : 200, body: '', headers: {}, trace };
}

describe('signature doctor', () => {
  const secretA = generateSecret();
  const secretB = generateSecret();
  const endpoints: EndpointInfo[] = [
    { id: 'we_a', name: 'Staging', url: 'https://x.example/webhook', signing_secret_hint: secretHint(secretA) },
    { id: 'we_b', name: 'Production', url: 'https://prod.example/webhook', signing_secret_hint: secretHint(secretB) },
  ];

  it('a re-serialized body: the same JSON pretty-printed; says which form was signed and where the bytes differ', () => {
    const headers = signedHeaders(secretA, 'msg_1', body, NOW);
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    const r = recordOf(headers, pretty, [{ endpointId: 'we_a', secret: secretA, label: 'Staging' }]);
    const [d] = diagnose(r, { endpoints });
    assert.equal(d.cause, 'reserialized');
    assert.match(d.title, /compact JSON/);
    assert.equal(r.trace!.reserialized!.offset, 1, 'the first byte after "{" differs (a newline)');
    assert.match(d.evidence.join('\n'), /"Staging" \(we_a\)/);
    assert.match(d.evidence.join('\n'), /First difference at byte 1/);
    assert.ok(d.evidence[1].includes(String.raw`received "{\n  \"object\":`), 'the newline that differs shows, quoted');
    assert.ok(d.evidence[1].includes(String.raw`signed "{\"object\":\"event\"`));
    assert.ok(!JSON.stringify(d).includes(secretA), 'never the secret');
  });

  it('a body that differs in content is not called re-serialized', () => {
    const headers = signedHeaders(secretA, 'msg_1', body, NOW);
    const r = recordOf(headers, body.replace('resp_1', 'resp_2'), [{ endpointId: 'we_a', secret: secretA }]);
    const causes = diagnose(r, { endpoints }).map((d) => d.cause);
    assert.deepEqual(causes, ['changed-on-the-way']);
    assert.equal(r.trace!.tried[0].matched, false);
    assert.match(r.trace!.tried[0].expected, /^v1,[A-Za-z0-9+/]{8}…$/);
    assert.match(r.trace!.received[0], /^v1,[A-Za-z0-9+/]{8}…$/);
    assert.notEqual(r.trace!.tried[0].expected, r.trace!.received[0]);
  });

  it("the secret held for one endpoint is another endpoint's: found by the service's hints", () => {
    // The delivery comes from Staging (signed with A); what is held for Staging is B, Production's.
    const headers = signedHeaders(secretA, 'msg_1', body, NOW);
    const r = recordOf(headers, body, [{ endpointId: 'we_a', secret: secretB, label: 'Staging' }]);
    const [d] = diagnose(r, { endpoints });
    assert.equal(d.cause, 'other-endpoint-secret');
    assert.match(d.title, /"Staging" \(we_a\) is "Production" \(we_b\)'s/);
    assert.ok(d.evidence.some((e) => e.includes(secretHint(secretB))));
    assert.ok(!JSON.stringify(d).includes(secretB) && !JSON.stringify(d).includes(secretA));
  });

  it('a held secret matching no endpoint is stale; an endpoint aimed here whose secret is not held is named', () => {
    const old = generateSecret();
    const headers = signedHeaders(secretA, 'msg_1', body, NOW);
    const aimed: EndpointInfo[] = [...endpoints, { id: 'we_c', name: 'Made elsewhere', url: 'https://x.example/webhook/', signing_secret_hint: 'whsec_...zzzz' }];
    const r = recordOf(headers, body, [{ endpointId: 'we_a', secret: old }]);
    const causes = diagnose(r, { endpoints: aimed, listenerUrl: 'https://x.example/webhook' }).map((d) => d.cause);
    assert.deepEqual(causes, ['stale-secret', 'unknown-endpoint', 'changed-on-the-way']);
  });

  it('clock skew: the timestamp beyond the tolerance, past or future, with the distance', () => {
    const known = [{ endpointId: 'we_a', secret: secretA }];
    const past = recordOf(signedHeaders(secretA, 'msg_1', body, NOW - 900_000), body, known);
    const [d] = diagnose(past, { endpoints });
    assert.equal(d.cause, 'clock-skew');
    assert.match(d.title, /15 min in the past/);
    assert.match(d.evidence[0], /= 900 s; tolerance ±300 s/);
    assert.equal(past.trace!.tried[0].matched, true, 'the signature itself was good');
    const future = recordOf(signedHeaders(secretA, 'msg_1', body, NOW + 400_000), body, known);
    assert.match(diagnose(future)[0].title, /in the future/);
    const days = recordOf(signedHeaders(secretA, 'msg_1', body, NOW - 3 * 86_400_000), body, known);
    assert.match(diagnose(days)[0].title, /3 days old: a delivery sent again/);
    const fine = recordOf(signedHeaders(secretA, 'msg_1', body, NOW - 200_000), body, known, 'verified');
    assert.deepEqual(diagnose(fine), [], 'nothing to diagnose for a verified delivery the app took');
  });

  it('a header dropped by a proxy; and a request with none of them is not a webhook at all', () => {
    const { 'webhook-signature': _dropped, ...rest } = signedHeaders(secretA, 'msg_1', body, NOW);
    const [d] = diagnose(recordOf(rest, body, [{ endpointId: 'we_a', secret: secretA }]));
    assert.equal(d.cause, 'header-dropped');
    assert.match(d.title, /^webhook-signature did not arrive, though webhook-id and webhook-timestamp did/);
    assert.equal(diagnose(recordOf({}, body, [{ endpointId: 'we_a', secret: secretA }]))[0].cause, 'not-a-webhook');
  });

  it('no secret held at all', () => {
    const r = recordOf(signedHeaders(secretA, 'msg_1', body, NOW), body, []);
    const [d] = diagnose(r, { endpoints, listenerUrl: 'https://x.example/webhook' });
    assert.equal(d.cause, 'no-secret');
    assert.match(d.evidence[0], /"Staging" \(we_a\) points here/);
  });

  it("the app refused a delivery the listener verified: the app's verifier is what failed", () => {
    const r = recordOf(signedHeaders(secretA, 'msg_1', body, NOW), body, [{ endpointId: 'we_a', secret: secretA, label: 'Staging' }], 'verified');
    assert.equal(r.trace!.tried[0].matched, true);
    r.forward = { url: 'http://127.0.0.1:3000/webhook', status: 401, durationMs: 2 };
    const [d] = diagnose(r, { endpoints });
    assert.equal(d.cause, 'app-verifier');
    assert.match(d.title, /answered 401 .* verified with "Staging" \(we_a\)'s secret/);
    assert.match(d.advice, new RegExp(`must end in ${secretA.slice(-4).replace(/[+/=]/g, '\\$&')}`));
    r.forward.status = 500;
    assert.deepEqual(diagnose(r, { endpoints }), [], 'a 500 is the app failing, not its verifier');
  });

  it('clock skew in words: seconds under two minutes, then minutes, hours or days, and "old" only past an hour', () => {
    const known = [{ endpointId: 'we_a', secret: secretA }];
    const title = (skewSeconds: number) => diagnose(recordOf(signedHeaders(secretA, 'msg_1', body, NOW - skewSeconds * 1000), body, known))[0]?.title;
    // A tolerance lowered to a minute (the setting allows it) shows skews under two minutes in seconds.
    const headers = signedHeaders(secretA, 'msg_1', body, NOW + 119_000);
    const tight = { ...recordOf(headers, body, known), trace: traceVerification({ headers, body: Buffer.from(body), known, toleranceSeconds: 60, now: NOW }) };
    assert.match(diagnose(tight)[0].title, /^The timestamp is 119 s in the future/);
    const twoMin = signedHeaders(secretA, 'msg_1', body, NOW + 120_000);
    const tight2 = {
      ...recordOf(twoMin, body, known),
      trace: traceVerification({ headers: twoMin, body: Buffer.from(body), known, toleranceSeconds: 60, now: NOW }),
    };
    assert.match(diagnose(tight2)[0].title, /^The timestamp is 2 min in the future/);
    assert.match(title(-301)!, /^The timestamp is 5 min in the future/);
    assert.match(title(3600)!, /^The timestamp is 60 min in the past: a clock is off/);
    assert.match(title(3601)!, /^The timestamp is 60 min old: a delivery sent again/);
    assert.match(title(7199)!, /^The timestamp is 120 min old/);
    assert.match(title(7200)!, /^The timestamp is 2 h old/);
    assert.match(title(172_799)!, /^The timestamp is 48 h old/);
    assert.match(title(172_800)!, /^The timestamp is 2 days old/);
    assert.notEqual(diagnose(recordOf(signedHeaders(secretA, 'msg_1', body, NOW - 300_000), body, known))[0]?.cause, 'clock-skew', 'exactly at the tolerance is not skew');
  });

  it("the app's latest answer decides: a replay it took clears a refused forward; 400 and 403 count as its verifier too", () => {
    const r = recordOf(signedHeaders(secretA, 'msg_1', body, NOW), body, [{ endpointId: 'we_a', secret: secretA }], 'verified');
    r.forward = { url: 'http://127.0.0.1:3000/webhook', status: 403, durationMs: 2 };
    assert.equal(diagnose(r)[0]?.cause, 'app-verifier');
    r.forward.status = 400;
    assert.equal(diagnose(r)[0]?.cause, 'app-verifier');
    r.replays = [{ url: 'http://127.0.0.1:3000/webhook', kind: 'replay', status: 200, durationMs: 1 }];
    assert.deepEqual(diagnose(r), []);
  });
});
