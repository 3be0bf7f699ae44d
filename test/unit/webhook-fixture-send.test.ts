import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { fixtureOf, parseFixture } from '../../src/webhooks/fixtures/format';
import { saveFixture } from '../../src/webhooks/fixtures/save';
import { answeredAsExpected, sendFixture } from '../../src/webhooks/fixtures/send';
import { shapeFlags } from '../../src/webhooks/fixtures/shape';
import { readScenario, runScenario } from '../../src/webhooks/fixtures/order';

const secret = `whsec_${Buffer.from('the app secret 0123456789abcdef').toString('base64')}`;
const event = (type: string, id = 'batch_1'): string => JSON.stringify({ object: 'event', id: `evt_${id}`, type, created_at: 1764370000, data: { id } });

/** A verifying app as users write it: Standard Webhooks' check, and each webhook-id acted on once. */
function verifyingApp(): Promise<{ url: string; server: Server; seen: { id: string; status: number; type?: string }[] }> {
  const seen: { id: string; status: number; type?: string }[] = [];
  const acted = new Set<string>();
  const wh = new Webhook(secret);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      let status = 200;
      let type: string | undefined;
      try {
        type = (wh.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as { type: string }).type;
        status = acted.has(id) ? 208 : 200;
        acted.add(id);
      } catch {
        status = 401;
      }
      seen.push({ id, status, ...(type ? { type } : {}) });
      res.writeHead(status).end(status === 401 ? 'bad signature' : 'ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, server, seen })));
}

describe('webhook fixtures: save, send, scenario', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof verifyingApp>>;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fixtures-'));
    app = await verifyingApp();
  });
  afterEach(async () => {
    await new Promise((r) => app.server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('a saved delivery is a file named from its type and time, never overwritten, and the app verifies its send', async () => {
    const f = fixtureOf('batch.completed', event('batch.completed'), { 'content-type': 'application/json', 'webhook-signature': 'v1,x' });
    const at = Date.UTC(2026, 10, 29, 0, 41, 7);
    const first = await saveFixture(join(dir, 'webhook-fixtures'), f, at);
    const second = await saveFixture(join(dir, 'webhook-fixtures'), f, at);
    assert.deepEqual((await readdir(join(dir, 'webhook-fixtures'))).sort(), ['batch.completed-2026-11-29T00-41-07Z-2.json', 'batch.completed-2026-11-29T00-41-07Z.json']);
    assert.notEqual(first, second);
    const parsed = parseFixture(await readFile(first, 'utf8'));
    assert.ok(parsed.ok);
    const r = await sendFixture({ fixture: parsed.fixture, variant: 'send', url: app.url, secret });
    assert.equal(r.answers[0]!.status, 200, `the app answered ${JSON.stringify(r.answers[0])}`);
    assert.deepEqual(app.seen, [{ id: r.webhookId, status: 200, type: 'batch.completed' }]);
    assert.ok(answeredAsExpected(r));
  });

  it('the four variants reach a verifying app as it should see them', async () => {
    const fixture = fixtureOf('response.completed', event('response.completed', 'resp_1'), {});
    const twice = await sendFixture({ fixture, variant: 'twice', url: app.url, secret });
    assert.deepEqual(twice.answers.map((a) => a.status), [200, 208], 'the same id twice: acted on once');
    assert.deepEqual(app.seen.map((s) => s.id), [twice.webhookId, twice.webhookId]);
    const stale = await sendFixture({ fixture, variant: 'stale', url: app.url, secret });
    assert.equal(stale.answers[0]!.status, 401, 'a verifying app refuses a timestamp ten minutes old');
    assert.ok(answeredAsExpected(stale));
    const other = await sendFixture({ fixture, variant: 'otherSecret', url: app.url, secret });
    assert.equal(other.answers[0]!.status, 401, 'another secret is refused');
    assert.ok(answeredAsExpected(other));
    const plain = await sendFixture({ fixture, variant: 'send', url: app.url, secret });
    assert.notEqual(plain.webhookId, twice.webhookId, 'each send has a new webhook-id');
    assert.equal(plain.answers[0]!.status, 200);
  });

  it('a send follows the replay path: a URL with a password is refused and nothing is sent', async () => {
    const fixture = fixtureOf('batch.failed', event('batch.failed'), {});
    const r = await sendFixture({ fixture, variant: 'send', url: app.url.replace('http://', 'http://u:p@'), secret });
    assert.equal(r.answers[0]!.status, undefined);
    assert.match(r.answers[0]!.error ?? '', /user name or password/);
    assert.equal(answeredAsExpected(r), false);
    assert.deepEqual(app.seen, [], 'the app received nothing');
  });

  it('flags a fixture edited into something the service never sends', () => {
    assert.deepEqual(shapeFlags(fixtureOf('batch.completed', event('batch.completed'), {})), []);
    const call = { object: 'event', id: 'evt_1', type: 'realtime.call.incoming', created_at: 1, data: { call_id: 'rtc_1' } };
    assert.deepEqual(shapeFlags(fixtureOf('realtime.call.incoming', JSON.stringify(call), {})), []);
    const noId = JSON.parse(event('batch.completed')) as { data: { id?: string } };
    delete noId.data.id;
    assert.deepEqual(shapeFlags(fixtureOf('batch.completed', JSON.stringify(noId), {})), ['"body.data.id" is missing']);
    assert.match(shapeFlags(fixtureOf('batch.exploded', event('batch.exploded'), {})).join('\n'), /not one of the service's event types/);
    assert.match(shapeFlags(fixtureOf('batch.failed', event('batch.completed'), {})).join('\n'), /"body.type" \("batch.completed"\) differs from "type" \("batch.failed"\)/);
  });

  it("a scenario sends a folder's fixtures in the order of their names, and stops when cancelled", async () => {
    for (const [name, type] of [['10-expired.json', 'batch.expired'], ['2-failed.json', 'batch.failed'], ['1-completed.json', 'batch.completed']]) {
      await writeFile(join(dir, name!), JSON.stringify(fixtureOf(type!, event(type!), {})));
    }
    await writeFile(join(dir, '3-notes.json'), '{"not":"a fixture"}');
    const { steps, skipped } = await readScenario(dir);
    assert.deepEqual(skipped.map((s) => s.file), ['3-notes.json']);
    const run = await runScenario(steps, 20, (s) => sendFixture({ fixture: s.fixture, variant: 'send', url: app.url, secret }));
    assert.equal(run.cancelled, false);
    assert.deepEqual(app.seen.map((s) => s.type), ['batch.completed', 'batch.failed', 'batch.expired']);
    const stop = new AbortController();
    const cut = await runScenario(steps, 60_000, async (s) => {
      stop.abort();
      return s.file;
    }, stop.signal);
    assert.deepEqual(cut, { done: [{ file: '1-completed.json', result: '1-completed.json' }], cancelled: true }, 'cancelled during the first wait');
  });
});
