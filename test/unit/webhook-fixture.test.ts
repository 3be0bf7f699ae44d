import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { fixtureOf, parseFixture, serializeFixture, signFixture } from '../../src/webhooks/fixtures/format';

describe('webhook fixtures: the file layout', () => {
  const received = '{"object":"event","id":"evt_1","type":"batch.completed","created_at":1,"data":{"id":"batch_1"}}';
  const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-signature': 'v1,abc', 'webhook-timestamp': '1', 'user-agent': 'OpenAI/1', host: 'x.example' };

  it('keeps the event and the headers a handler reads, never the signature', () => {
    const text = serializeFixture(fixtureOf('batch.completed', received, headers, { webhookId: 'msg_1' }));
    assert.doesNotMatch(text, /v1,abc|webhook-signature|webhook-timestamp|x\.example/);
    const parsed = parseFixture(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.fixture.headers, { 'content-type': 'application/json', 'user-agent': 'OpenAI/1' });
    assert.equal((parsed.fixture.body as { data: { id: string } }).data.id, 'batch_1');
  });

  it('a send is signed afresh, and Standard Webhooks verifies it', () => {
    const secret = `whsec_${Buffer.from('fixture secret 0123456789').toString('base64')}`;
    const signed = signFixture(fixtureOf('batch.completed', received, headers), secret, 'msg_new');
    assert.equal(signed.body, received);
    const event = new Webhook(secret).verify(signed.body, signed.headers) as { type: string };
    assert.equal(event.type, 'batch.completed');
    assert.equal(signed.headers['webhook-id'], 'msg_new');
  });

  it('a body that was not JSON is kept as its text', () => {
    const f = fixtureOf('batch.completed', 'not json{', headers);
    assert.equal(signFixture(f, 'whsec_AAAA', 'msg_2').body, 'not json{');
  });

  it('says in words what makes a file not a fixture', () => {
    assert.deepEqual(parseFixture('[1]'), { ok: false, reason: 'not a JSON object' });
    assert.match((parseFixture('{') as { reason: string }).reason, /^not JSON/);
    assert.match((parseFixture('{"type":"x","body":1}') as { reason: string }).reason, /aoaiWorkbenchFixture/);
    assert.match((parseFixture('{"aoaiWorkbenchFixture":1,"type":"x","body":1,"headers":{"a":1}}') as { reason: string }).reason, /headers/);
  });
});
