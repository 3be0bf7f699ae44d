import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_FIXTURES_FOLDER, fixturesFolderIn, fixturesFolderOnDisk, fixturesFolderProblem } from '../../src/webhooks/fixtures/folder';
import { serializeFixture, parseFixture } from '../../src/webhooks/fixtures/format';
import { catalogFixture, fixtureOfDelivery, notSavable } from '../../src/webhooks/fixtures/fromDelivery';
import { fixtureInText } from '../../src/webhooks/fixtures/lens';
import { sendFixture } from '../../src/webhooks/fixtures/send';
import { deliveryView } from '../../src/webhooks/inspect/deliveryView';
import { isDeliveryView } from '../../src/webhooks/inspect/inspectorProtocol';
import { shapeFlags } from '../../src/webhooks/fixtures/shape';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { WEBHOOK_EVENT_TYPES } from '../../src/service/types';

const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'batch.completed', created_at: 1764370000, data: { id: 'batch_1' } });
const record = (over: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id: 'rec1',
  receivedAt: Date.UTC(2026, 10, 29, 1, 2, 3),
  verdict: 'verified',
  status: 200,
  webhookId: 'msg_abc',
  endpointId: 'wh_1',
  eventType: 'batch.completed',
  body,
  headers: { 'content-type': 'application/json', 'user-agent': 'OpenAI/1.0', 'webhook-id': 'msg_abc', 'webhook-timestamp': '1', 'webhook-signature': 'v1,xyz' },
  ...over,
});

describe('webhook fixtures in the editor: folder, delivery, catalog, lens', () => {
  it('the fixtures folder is inside the workspace folder: ".." and absolute paths are refused', () => {
    const root = resolve('/work/space');
    assert.equal(fixturesFolderIn(root, ''), join(root, DEFAULT_FIXTURES_FOLDER));
    assert.equal(fixturesFolderIn(root, 'test/fixtures/hooks'), join(root, 'test', 'fixtures', 'hooks'));
    assert.equal(fixturesFolderIn(root, './hooks/'), join(root, 'hooks'));
    for (const bad of ['..', '../elsewhere', 'a/../../b', 'a\\..\\..\\b', '/etc', 'C:\\Users\\x', 'c:x', '\\\\server\\share', '~/hooks']) {
      assert.ok(fixturesFolderProblem(bad), `refused: ${bad}`);
      assert.throws(() => fixturesFolderIn(root, bad), /fixturesFolder/, bad);
    }
    assert.equal(fixturesFolderProblem('webhook-fixtures'), undefined);
    // A name with two dots that is not ".." is a name.
    assert.equal(fixturesFolderIn(root, 'a..b'), join(root, 'a..b'));
  });

  it("a workspace's link out of itself is not written through; a folder still to be made is fine", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixture-folder-'));
    try {
      const root = join(dir, 'repo');
      await mkdir(join(root, 'real'), { recursive: true });
      await mkdir(join(dir, 'elsewhere'));
      await symlink(join(dir, 'elsewhere'), join(root, DEFAULT_FIXTURES_FOLDER), 'dir');
      await assert.rejects(fixturesFolderOnDisk(root, ''), /a link to a folder outside the workspace folder/);
      await assert.rejects(fixturesFolderOnDisk(root, `${DEFAULT_FIXTURES_FOLDER}/deeper/still`), /outside the workspace folder/);
      await symlink(join(root, 'real'), join(root, 'inside'), 'dir');
      assert.equal(await fixturesFolderOnDisk(root, 'inside/hooks'), join(root, 'inside', 'hooks'), 'a link within the workspace is fine');
      assert.equal(await fixturesFolderOnDisk(root, 'not/yet/made'), join(root, 'not', 'yet', 'made'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a verified delivery becomes a fixture without its signature; a rejected or cut one is refused in words', () => {
    const f = fixtureOfDelivery(record());
    assert.equal(f.type, 'batch.completed');
    assert.deepEqual(f.body, JSON.parse(body));
    assert.deepEqual(f.headers, { 'content-type': 'application/json', 'user-agent': 'OpenAI/1.0' });
    assert.deepEqual(f.source, { receivedAt: '2026-11-29T01:02:03.000Z', recordId: 'rec1', webhookId: 'msg_abc', endpointId: 'wh_1' });
    const text = serializeFixture(f);
    assert.doesNotMatch(text, /v1,xyz|webhook-signature|webhook-timestamp/);
    const back = parseFixture(text);
    assert.ok(back.ok && back.fixture.source?.recordId === 'rec1', 'the record id survives the file');
    assert.equal(notSavable(record({ verdict: 'duplicate' })), undefined, 'a duplicate was signed too');
    assert.match(notSavable(record({ verdict: 'rejected' }))!, /Only a verified delivery/);
    assert.match(notSavable(record({ verdict: 'malformed' }))!, /Only a verified delivery/);
    assert.match(notSavable(record({ bodyTruncated: true, bodyBytes: 400_000 }))!, /first part/);
    assert.throws(() => fixtureOfDelivery(record({ verdict: 'rejected' })), /Only a verified delivery/);
  });

  it("the catalog's fixture of each of the twelve types has the service's shape, naming a real object's id when given", () => {
    assert.equal(WEBHOOK_EVENT_TYPES.length, 12);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const f = catalogFixture(type);
      assert.deepEqual(shapeFlags(f), [], type);
      assert.equal(f.source?.catalog, true);
      assert.ok(parseFixture(serializeFixture(f)).ok, type);
    }
    const real = catalogFixture('batch.completed', 'batch_real_1', Date.UTC(2026, 0, 1));
    assert.deepEqual(real.body, { ...(real.body as object), object: 'event', type: 'batch.completed', created_at: 1767225600, data: { id: 'batch_real_1' } });
    assert.equal((catalogFixture('realtime.call.incoming', 'rtc_9').body as { data: { call_id: string } }).data.call_id, 'rtc_9');
    assert.match((catalogFixture('fine_tuning.job.failed').body as { data: { id: string } }).data.id, /^ftjob-/);
  });

  it('the lens finds a fixture by its mark and says where its shape differs; any other JSON gets nothing', () => {
    const f = catalogFixture('response.completed', 'resp_1');
    const text = serializeFixture(f);
    const found = fixtureInText(text)!;
    assert.equal(found.line, 1);
    assert.deepEqual(found.flags, []);
    assert.equal(fixtureInText('{"name": "package", "version": "1.0.0"}'), undefined);
    assert.equal(fixtureInText('{"aoaiWorkbenchFixture": 1, "type": '), undefined, 'a fixture mid-edit (not JSON) gets no lens');
    assert.equal(fixtureInText('{"aoaiWorkbenchFixture": 2, "type": "x", "body": {}}'), undefined, 'another version is not ours');
    const edited = serializeFixture({ ...f, type: 'response.exploded' });
    const flagged = fixtureInText(edited)!;
    assert.deepEqual(
      flagged.flags.map((x) => x.text),
      ['"response.exploded" is not one of the service\'s event types', '"body.type" ("response.completed") differs from "type" ("response.exploded")'],
    );
    assert.equal(flagged.flags[0]!.line, 2, 'on the "type" line');
  });

  it('a fixture send keeps the route that chose the app with each answer, as a replay does, marked as from a fixture', async () => {
    const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/batch`;
      const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
      const r = await sendFixture({ fixture: catalogFixture('batch.failed'), variant: 'twice', url, route: 'batch.*', secret });
      assert.deepEqual(r.answers.map((a) => [a.status, a.route, a.kind, a.fixture]), [[204, 'batch.*', 'replay', true], [204, 'batch.*', 'replay', true]]);
      // The inspector tells them from its own replays.
      const view = deliveryView(record({ replays: r.answers }));
      assert.deepEqual(view.answers.map((a) => a.fixture), [true, true]);
      assert.ok(isDeliveryView(view));
      assert.ok(!isDeliveryView({ ...view, answers: [{ ...view.answers[0], fixture: 'yes' }] }));
      const plain = await sendFixture({ fixture: catalogFixture('batch.failed'), variant: 'send', url, secret });
      assert.equal(plain.answers[0]!.route, undefined, 'no route: the forward URL');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
