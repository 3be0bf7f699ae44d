import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { generateSecret, secretHint, sign, signedHeaders, verify } from '../../src/webhooks/signature';

// The Standard Webhooks specification's reference vector.
const REF = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  ts: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signatures', () => {
  it('matches the Standard Webhooks reference vector', () => {
    assert.equal(sign(REF.secret, REF.id, REF.ts, REF.body), REF.signature);
    const headers = { 'webhook-id': REF.id, 'webhook-timestamp': String(REF.ts), 'webhook-signature': REF.signature };
    assert.deepEqual(verify({ headers, body: REF.body, secrets: [REF.secret], now: REF.ts * 1000 }), { ok: true, secretIndex: 0 });
  });

  it('produces deliveries that the standardwebhooks package and openai.webhooks.unwrap() accept', async () => {
    const secret = generateSecret();
    const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'response.completed', created_at: 1, data: { id: 'resp_1' } });
    const headers = signedHeaders(secret, 'msg_abc', body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    const client = new OpenAI({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9' });
    const event = await client.webhooks.unwrap(body, headers, secret);
    assert.equal(event.type, 'response.completed');
  });

  it('verifies signatures made by the standardwebhooks package, among several in one header', () => {
    const secret = generateSecret();
    const now = new Date();
    const body = '{"x":1}';
    const theirs = new Webhook(secret).sign('msg_1', now, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(+now / 1000)), 'webhook-signature': `v1,AAAA v1a,zzz ${theirs}` };
    assert.deepEqual(verify({ headers, body, secrets: [generateSecret(), secret] }), { ok: true, secretIndex: 1 });
  });

  it('uses the UTF-8 bytes of a secret without the whsec_ prefix, as the openai package does', async () => {
    const body = '{"b":1}';
    const headers = signedHeaders('plain-secret', 'msg_2', body);
    const client = new OpenAI({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9' });
    assert.deepEqual(await client.webhooks.unwrap(body, headers, 'plain-secret'), { b: 1 });
    assert.equal(verify({ headers, body, secrets: ['plain-secret'] }).ok, true);
  });

  it('names the reason for each rejection', () => {
    const secret = generateSecret();
    const body = '{"a":1}';
    const now = Date.now();
    const good = signedHeaders(secret, 'msg_3', body, now);
    const reason = (headers: Record<string, string>, b = body, secrets = [secret]) => {
      const r = verify({ headers, body: b, secrets, now });
      return r.ok ? 'ok' : `${r.reason}: ${r.message}`;
    };
    assert.match(reason({ ...good, 'webhook-signature': '' }), /^missing-header: .*webhook-signature/);
    assert.match(reason({ ...good, 'webhook-timestamp': 'yesterday' }), /^bad-timestamp/);
    assert.match(reason(signedHeaders(secret, 'msg_3', body, now - 400_000)), /^timestamp-too-old: .*400 s in the past/);
    assert.match(reason(signedHeaders(secret, 'msg_3', body, now + 301_000)), /^timestamp-too-new: .*301 s in the future/);
    assert.match(reason(good, body, []), /^no-secret/);
    assert.match(reason(good, '{"a":2}'), /^signature-mismatch: .*body was changed/);
    assert.match(reason(good, body, [generateSecret()]), /^signature-mismatch/);
    assert.equal(reason(good), 'ok');
  });

  it('accepts timestamps up to 300 s away by default, and exactly the tolerance it is given', () => {
    const secret = generateSecret();
    const body = '{"a":1}';
    const now = 1_700_000_000_000;
    const at = (offsetSeconds: number, toleranceSeconds?: number) => {
      const r = verify({ headers: signedHeaders(secret, 'msg_t', body, now + offsetSeconds * 1000), body, secrets: [secret], now, toleranceSeconds });
      return r.ok ? 'ok' : r.reason;
    };
    assert.deepEqual([at(-300), at(300), at(-301), at(301)], ['ok', 'ok', 'timestamp-too-old', 'timestamp-too-new']);
    assert.deepEqual([at(-60, 60), at(-61, 60), at(61, 60)], ['ok', 'timestamp-too-old', 'timestamp-too-new']);
    // The distance comes back as a positive number of seconds either way, for messages built on it.
    const skew = (offsetSeconds: number) => {
      const r = verify({ headers: signedHeaders(secret, 'msg_t', body, now + offsetSeconds * 1000), body, secrets: [secret], now });
      return !r.ok && 'skewSeconds' in r ? r.skewSeconds : undefined;
    };
    assert.deepEqual([skew(-400), skew(400)], [400, 400]);
  });

  it('reads the headers as a sender may send them: arrays, several signatures, odd versions and lengths', () => {
    const secret = generateSecret();
    const body = '{"a":1}';
    const now = 1_700_000_000_000;
    const good = signedHeaders(secret, 'msg_h', body, now);
    const check = (headers: Record<string, string | string[]>) => verify({ headers, body, secrets: [secret], now });
    assert.equal(check({ ...good, 'webhook-signature': [good['webhook-signature'], 'v1,AAAA'] }).ok, true, 'the first of repeated headers');
    assert.equal(check({ ...good, 'webhook-signature': `v1,AAAA v1,${'A'.repeat(43)}= ${good['webhook-signature']}` }).ok, true, 'any of several');
    assert.equal(check({ ...good, 'webhook-signature': good['webhook-signature'].slice(3) }).ok, true, 'an unversioned signature');
    assert.deepEqual(
      check({ ...good, 'webhook-signature': `v2,${good['webhook-signature'].slice(3)}` }),
      { ok: false, reason: 'signature-mismatch', message: 'Signature mismatch: the body was changed, or it was signed with another secret.' },
      'another version is not v1',
    );
    assert.equal(check({ ...good, 'webhook-signature': 'v1,AAAA' }).ok, false, 'a short signature is a mismatch, not a crash');
    for (const ts of ['1.5', '-1', ' 1700000000', '1e9', '']) {
      const r = check({ ...good, 'webhook-timestamp': ts });
      assert.equal(r.ok ? 'ok' : r.reason, ts === '' ? 'missing-header' : 'bad-timestamp', JSON.stringify(ts));
    }
    const long = check({ ...good, 'webhook-timestamp': 'x'.repeat(100) });
    assert.ok(!long.ok && long.message === `webhook-timestamp "${'x'.repeat(40)}" is not a Unix time in seconds.`, 'quoted, cut at 40 characters');
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const { [name]: _, ...rest } = good;
      const r = check(rest);
      assert.ok(!r.ok && r.reason === 'missing-header' && r.header === name && r.message === `Missing required header ${name}.`, name);
    }
  });

  it('signs with a whsec_ secret\'s decoded bytes or a plain secret\'s UTF-8 bytes, the same from a string or a Buffer key', () => {
    const plain = 'plain-secret-ü';
    const raw = Buffer.from('0123456789abcdef0123456789abcdef');
    const whsec = `whsec_${raw.toString('base64')}`;
    const mac = (key: Buffer) => `v1,${createHmac('sha256', key).update('msg_k.42.{}').digest('base64')}`;
    assert.equal(sign(whsec, 'msg_k', 42, '{}'), mac(raw));
    assert.equal(sign(raw, 'msg_k', '42', Buffer.from('{}')), mac(raw));
    assert.equal(sign(plain, 'msg_k', 42, '{}'), mac(Buffer.from(plain, 'utf8')));
    // Many secrets in turn (the key cache is bounded) still sign correctly.
    for (let i = 0; i < 1100; i++) sign(`s${i}`, 'm', 1, '');
    assert.equal(sign(whsec, 'msg_k', 42, '{}'), mac(raw));
  });

  it('makes 32-byte whsec_ secrets and hints that show only the last four characters', () => {
    const s = generateSecret();
    assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
    assert.equal(secretHint(s), `whsec_...${s.slice(-4)}`);
    assert.notEqual(generateSecret(), s);
  });
});
