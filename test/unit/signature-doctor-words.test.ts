// What the inspector shows for each diagnosis, word for word: the title, the advice and every line
// of evidence are what the user reads to fix their set-up, so a lost line or a wrong number is a
// regression the user notices. Traces are written out by hand to pin each figure.
import assert from 'node:assert/strict';
import { diagnose, type Diagnosis, type EndpointInfo } from '../../src/webhooks/inspect/doctor';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import type { VerifyTrace } from '../../src/webhooks/inspect/trace';

const HINT_A = 'whsec_...AAA1';
const HINT_B = 'whsec_...BBB2';

function trace(over: Partial<VerifyTrace> = {}): VerifyTrace {
  return { toleranceSeconds: 300, skewSeconds: 4, missingHeaders: [], received: ['v1,abcdefgh…'], tried: [], bodyBytes: 12_345, bodySha256: '0123abcd', ...over };
}

function rejected(t: VerifyTrace): DeliveryRecord {
  return { id: 'r', receivedAt: 0, verdict: 'rejected', status: 400, body: '', headers: {}, trace: t };
}

const tried = (endpointId: string, hint: string, matched = false, label?: string) => ({ endpointId, hint, expected: 'v1,zyxwvuts…', matched, label });

describe('signature doctor: what the user reads', () => {
  it('not a webhook: all three headers missing', () => {
    const d = diagnose(rejected(trace({ missingHeaders: ['webhook-id', 'webhook-timestamp', 'webhook-signature'], skewSeconds: undefined })));
    assert.deepEqual(d, [
      {
        cause: 'not-a-webhook',
        title: 'Not a Standard Webhooks delivery: none of webhook-id, webhook-timestamp and webhook-signature arrived.',
        advice: 'If the service sent it, something in front of the listener strips webhook-* headers. Otherwise it came from someone else (a scanner, a health check) and can be ignored.',
        evidence: ['Missing: webhook-id, webhook-timestamp, webhook-signature.'],
      },
    ] satisfies Diagnosis[]);
  });

  it('two headers dropped: both named as missing, the third as present', () => {
    const [d] = diagnose(rejected(trace({ missingHeaders: ['webhook-id', 'webhook-signature'], skewSeconds: undefined })));
    assert.deepEqual(d, {
      cause: 'header-dropped',
      title: 'webhook-id and webhook-signature did not arrive, though webhook-timestamp did: a proxy or gateway dropped it.',
      advice: 'Let every webhook-* header through the proxy, tunnel or API gateway in front of the app (some drop headers they do not know, or ones over a size).',
      evidence: ['Missing: webhook-id, webhook-signature.', 'Present: webhook-timestamp.'],
    });
    const [one] = diagnose(rejected(trace({ missingHeaders: ['webhook-signature'] })));
    assert.deepEqual(one.evidence, ['Missing: webhook-signature.', 'Present: webhook-id, webhook-timestamp.']);
  });

  it('clock skew alone: only the skew, with the advice for a clock that is off or a delivery sent again', () => {
    const off = diagnose(rejected(trace({ skewSeconds: -400, tried: [tried('we_a', HINT_A, true)] })));
    assert.deepEqual(off, [
      {
        cause: 'clock-skew',
        title: "The timestamp is 7 min in the future: a clock is off, this machine's or the sender's.",
        advice: 'Sync this machine\'s clock (NTP), or raise "aoaiWorkbench.webhooks.toleranceSeconds" in your user settings (up to 3600) while testing.',
        evidence: ['Arrival − webhook-timestamp = -400 s; tolerance ±300 s.'],
      },
    ]);
    const [again] = diagnose(rejected(trace({ skewSeconds: 90_000, tried: [tried('we_a', HINT_A, true)] })));
    assert.equal(again.advice, 'Re-sign it before sending it again (Replay, or Copy as curl for a fresh command): a signature is good for the tolerance only.');
  });

  it('no secret held: every endpoint aimed here named, with its hint or "no hint"', () => {
    const endpoints: EndpointInfo[] = [
      { id: 'we_a', name: 'Staging', url: 'https://x.example/webhook', signing_secret_hint: HINT_A },
      { id: 'we_n', url: 'https://x.example/webhook//', signing_secret_hint: null },
      { id: 'we_far', url: 'https://elsewhere.example/webhook', signing_secret_hint: HINT_B },
    ];
    // The listener's URL as written with trailing slashes still matches the endpoints' URLs.
    const d = diagnose(rejected(trace()), { endpoints, listenerUrl: 'https://x.example/webhook//' });
    assert.deepEqual(d, [
      {
        cause: 'no-secret',
        title: 'No signing secret is held here for this connection, so no delivery can be verified.',
        advice: 'The service shows a secret only when an endpoint is created: create one from here (Start Listening offers it) so its secret is kept.',
        evidence: [`"Staging" (we_a) points here; its secret (${HINT_A}) is not held here.`, 'we_n points here; its secret (no hint) is not held here.'],
      },
    ]);
  });

  it('a re-serialized body: the advice to verify the raw bytes', () => {
    const [d] = diagnose(
      rejected(trace({ tried: [tried('we_a', HINT_A)], reserialized: { endpointId: 'we_a', form: 'compact JSON', offset: 1, received: '{\n', signed: '{"' } })),
    );
    assert.equal(
      d.advice,
      'Verify the raw bytes as they arrive, before any JSON parsing (e.g. express.raw() rather than express.json() on the webhook route), and let no proxy rewrite the body.',
    );
  });

  it('changed on the way: the signatures received (and how many more), what each secret expects, the body size and hash', () => {
    const t = trace({ received: ['v1,aaaaaaaa…', 'v1,bbbbbbbb…'], receivedMore: 3, tried: [tried('we_a', HINT_A, false, 'Staging'), tried('we_b', HINT_B)] });
    const d = diagnose(rejected(t));
    assert.deepEqual(d, [
      {
        cause: 'changed-on-the-way',
        title:
          'None of the secrets held here gives the signature received: the body, webhook-id or webhook-timestamp changed on the way, or another secret signed it.',
        advice: "Compare the body's size and hash with what the sender sent; make sure nothing rewrites it (compression, charset conversion, re-serialization).",
        evidence: [
          'Received 5 signatures: v1,aaaaaaaa… v1,bbbbbbbb….',
          `"Staging" (we_a) (${HINT_A}) expects v1,zyxwvuts…`,
          `we_b (${HINT_B}) expects v1,zyxwvuts…`,
          'Body as received: 12,345 bytes, SHA-256 0123abcd…',
        ],
      },
    ]);
    const one = diagnose(rejected(trace({ tried: [tried('we_a', HINT_A)] })))[0];
    assert.equal(one.evidence[0], 'Received 1 signature: v1,abcdefgh….');
    const none = diagnose(rejected(trace({ received: [], tried: [tried('we_a', HINT_A)] })))[0];
    assert.equal(none.evidence[0], 'Received 0 signatures: none.');
  });

  it("a secret held for the second endpoint that is the first one's: found whatever the order", () => {
    const endpoints: EndpointInfo[] = [
      { id: 'we_a', name: 'Staging', signing_secret_hint: HINT_A },
      { id: 'we_b', name: 'Production', signing_secret_hint: HINT_B },
    ];
    const [d] = diagnose(rejected(trace({ tried: [tried('we_b', 'whsec_...AAA1')] })), { endpoints });
    assert.deepEqual(d, {
      cause: 'other-endpoint-secret',
      title: `The secret held for "Production" (we_b) is "Staging" (we_a)'s: its hint matches the other endpoint's.`,
      advice: `Deliveries from "Production" (we_b) are signed with its own secret (hint ${HINT_B}). Copy that secret into the app, or recreate the endpoint here so its secret is kept.`,
      evidence: [`Held for we_b: ${HINT_A}.`, `Service's hint for we_b: ${HINT_B}.`, `Service's hint for we_a: ${HINT_A}.`],
    });
  });

  it('a stale secret and an endpoint aimed here whose secret is not held, word for word', () => {
    const endpoints: EndpointInfo[] = [
      { id: 'we_a', name: 'Staging', url: 'https://x.example/webhook', signing_secret_hint: HINT_A },
      { id: 'we_c', url: 'https://x.example/webhook' },
    ];
    const d = diagnose(rejected(trace({ tried: [tried('we_a', 'whsec_...OLD0', false, 'Staging')] })), { endpoints, listenerUrl: 'https://x.example/webhook' });
    assert.deepEqual(d.slice(0, 2), [
      {
        cause: 'stale-secret',
        title: 'The secret held for "Staging" (we_a) is not the one the service signs with now (the hints differ): it was replaced.',
        advice: 'The service returns a secret only at creation: recreate the endpoint here (or rotate it) so the new secret is kept.',
        evidence: ['Held here: whsec_...OLD0.', `Service's hint: ${HINT_A}.`],
      },
      {
        cause: 'unknown-endpoint',
        title: 'we_c also delivers here, and its secret is not held here: its deliveries are rejected like this one.',
        advice: 'Point only endpoints created here at the listener, or recreate that one here so its secret is kept.',
        evidence: ['we_c → https://x.example/webhook, secret (no hint).'],
      },
    ]);
  });

  it("the app's verifier: the advice and the evidence, with the secret that verified or without one", () => {
    const verified = (t: VerifyTrace): DeliveryRecord => ({ ...rejected(t), verdict: 'verified', status: 200, forward: { url: 'http://127.0.0.1:3000/', status: 401, durationMs: 2 } });
    const [d] = diagnose(verified(trace({ skewSeconds: 3, tried: [tried('we_a', HINT_A, true)] })));
    assert.deepEqual(d, {
      cause: 'app-verifier',
      title: `The app answered 401 to a delivery the listener verified with we_a's secret (${HINT_A}): the app's own check is what failed.`,
      advice:
        'Most often the app verifies a parsed and re-serialized body instead of the raw bytes, or holds another secret (its secret must end in AAA1). ' +
        'Run "Check My Webhook Verifier" to test it with a correctly signed and a tampered delivery.',
      evidence: ['Listener: verified, timestamp 3 s old on arrival.', 'App: 401.'],
    });
    // A record verified before traces named the secret (no match in the trace, no skew).
    const [old] = diagnose(verified(trace({ skewSeconds: undefined })));
    assert.equal(old.title, "The app answered 401 to a delivery the listener verified with a secret held here: the app's own check is what failed.");
    assert.ok(old.advice.startsWith('Most often the app verifies a parsed and re-serialized body instead of the raw bytes, or holds another secret. Run'));
    assert.equal(old.evidence[0], 'Listener: verified, timestamp ? s old on arrival.');
  });

  it('malformed JSON the app refuses is not blamed on its verifier: refusing it is right', () => {
    const r: DeliveryRecord = { ...rejected(trace({ tried: [tried('we_a', HINT_A, true)] })), verdict: 'malformed' };
    r.replays = [{ url: 'http://127.0.0.1:3000/', kind: 'replay', status: 400, durationMs: 2 }];
    assert.deepEqual(diagnose(r), []);
  });
});
