import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { Transport } from '../../src/service/transport';
import { fixtureOf } from '../../src/webhooks/fixtures/format';
import { BURST_SIZE, checkHandler, handlerUrlProblem, type HandlerReport } from '../../src/webhooks/fixtures/handlerCheck';
import { handlerReportMarkdown } from '../../src/webhooks/fixtures/handlerReport';
import { webhookTransport } from '../../src/webhooks/send/outbound';
import { generateSecret } from '../../src/webhooks/signature';
import { startAnsweringApp, type Answer, type AnsweringApp } from '../support/answeringApp';
import { freePort } from '../support/ports';

const secret = generateSecret();
const fixture = fixtureOf(
  'batch.completed',
  JSON.stringify({ object: 'event', id: 'evt_fixture_1', type: 'batch.completed', created_at: 1764370000, data: { id: 'batch_abc' } }),
  { 'content-type': 'application/json' },
);

/** Verifies with Standard Webhooks' own library; `onVerified` answers what it does with a verified delivery. */
function verifying(onVerified: (id: string) => Answer): (body: string, headers: Record<string, unknown>) => Answer {
  const wh = new Webhook(secret);
  return (body, headers) => {
    try {
      wh.verify(body, headers as Record<string, string>);
    } catch {
      return { status: 401, body: 'invalid signature' };
    }
    return onVerified(String(headers['webhook-id']));
  };
}

const outcomes = (r: HandlerReport) => Object.fromEntries(r.results.map((x) => [x.check, x.outcome]));
const result = (r: HandlerReport, check: string) => r.results.find((x) => x.check === check)!;

describe('Check My Handler against apps on this machine', () => {
  const apps: AnsweringApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  const start = async (answer: Parameters<typeof startAnsweringApp>[0]) => {
    const app = await startAnsweringApp(answer);
    apps.push(app);
    return app;
  };

  it('a sound app (verifies with standardwebhooks, processes each webhook-id once) passes every check', async () => {
    const seen = new Set<string>();
    const app = await start(
      verifying((id) => {
        if (seen.has(id)) return { status: 200, body: '{"duplicate":true}' };
        seen.add(id);
        return { status: 200, body: '{"ok":true}' };
      }),
    );
    const steps: string[] = [];
    const report = await checkHandler({ fixture, url: app.url, secret, onStep: (c, i, n) => steps.push(`${i + 1}/${n} ${c}`) });
    assert.deepEqual(outcomes(report), { valid: 'pass', duplicate: 'pass', stale: 'pass', wrongSecret: 'pass', tampered: 'pass', burst: 'pass' }, JSON.stringify(report.results, null, 1));
    assert.deepEqual(steps, ['1/6 valid', '2/6 duplicate', '3/6 stale', '4/6 wrongSecret', '5/6 tampered', '6/6 burst']);
    assert.equal(report.sound, true);
    assert.match(result(report, 'valid').title, /answered 200 in \d+ ms \(the limit is 10 s\)/);
    assert.match(result(report, 'duplicate').title, /says it was seen before/);
    assert.match(result(report, 'stale').title, /refused a delivery signed 10 minutes ago: 401/);
    assert.match(result(report, 'tampered').title, /refused a delivery whose body was changed after signing: 401/);
    assert.match(result(report, 'burst').title, new RegExp(`A burst of ${BURST_SIZE} deliveries at once: all answered 2xx`));
    // 1 + 2 + 1 + 1 + 1 + 20, each sent once, every one signed.
    assert.equal(app.received.length, 26);
    assert.ok(app.received.every((r) => /^v1,/.test(String(r.headers['webhook-signature']))));
    assert.match(report.summary, /passed every check/);
    const doc = handlerReportMarkdown(report);
    assert.match(doc, /## ✅ A valid delivery, answered within 10 s/);
    assert.match(doc, /`\{"duplicate":true\}`/);
  });

  it('an app that processes a duplicate again, and says so in its answer, is told to dedupe by webhook-id', async () => {
    let n = 0;
    const app = await start(verifying((id) => ({ status: 200, body: JSON.stringify({ processed: id, count: ++n }) })));
    const report = await checkHandler({ fixture, url: app.url, secret });
    assert.deepEqual(outcomes(report), { valid: 'pass', duplicate: 'fail', stale: 'pass', wrongSecret: 'pass', tampered: 'pass', burst: 'pass' });
    const dup = result(report, 'duplicate');
    assert.match(dup.title, /the app says it processed the repeat again \(200 in \d+ ms, 200 in \d+ ms\)/);
    assert.match(dup.advice ?? '', /Keep the webhook-id of each delivery you processed/);
    assert.equal(report.sound, false);
    assert.match(report.summary, /^1 of 6 checks failed\. First: The same webhook-id twice/);
    assert.match(handlerReportMarkdown(report), /## ❌ The same webhook-id twice/);
  });

  it('an app that accepts any signature fails the three refusals, and its duplicate answer leaves a note', async () => {
    const app = await start([{ status: 200, body: 'ok' }]);
    const report = await checkHandler({ fixture, url: app.url, secret });
    assert.deepEqual(outcomes(report), { valid: 'pass', duplicate: 'note', stale: 'fail', wrongSecret: 'fail', tampered: 'fail', burst: 'pass' });
    assert.match(result(report, 'stale').title, /accepted a delivery signed 10 minutes ago: 200/);
    assert.match(result(report, 'stale').advice ?? '', /Check webhook-timestamp/);
    assert.match(result(report, 'wrongSecret').meaning, /Anyone who finds its URL/);
    assert.match(result(report, 'tampered').title, /accepted a delivery whose body was changed after signing/);
    assert.match(result(report, 'duplicate').meaning, /Processing it once is the app's duty/);
    // The tampered delivery's body names another batch than the one it was signed with.
    const tampered = app.received[5]!;
    assert.match(tampered.body, /"id":"batch_abc_tampered"/);
    assert.throws(() => new Webhook(secret).verify(tampered.body, tampered.headers as Record<string, string>), 'its signature does not verify');
  });

  it('an app that refuses everything fails the valid delivery, and its refusals count for nothing', async () => {
    const app = await start([{ status: 401, body: 'no' }]);
    const report = await checkHandler({ fixture, url: app.url, secret });
    assert.deepEqual(outcomes(report), { valid: 'fail', duplicate: 'fail', stale: 'note', wrongSecret: 'note', tampered: 'note', burst: 'fail' });
    assert.match(result(report, 'valid').advice ?? '', /verifies with another secret/);
    assert.match(result(report, 'stale').title, /refuses a correctly signed one too/);
  });

  it('no app at the URL: one result that says so, and nothing else is sent', async () => {
    const report = await checkHandler({ fixture, url: `http://127.0.0.1:${await freePort()}/webhook`, secret });
    assert.deepEqual(outcomes(report), { valid: 'fail' });
    assert.equal(report.stopped, true);
    assert.match(report.summary, /did not answer a correctly signed delivery: ECONNREFUSED: nothing is listening there/);
  });

  it('a URL off this machine is refused before anything is sent; loopback and .localhost names are not', async () => {
    let sent = 0;
    const counting: Transport = {
      request: (...a) => (sent++, webhookTransport.request(...a)),
      proxyLabel: (u) => webhookTransport.proxyLabel(u),
      close: () => Promise.resolve(),
    };
    for (const url of ['http://app.invalid/webhook', 'http://user:pw@localhost:3000/webhook', 'not a url']) {
      await assert.rejects(checkHandler({ fixture, url, secret, outbound: counting }), (e: Error) => /only to this machine|user name or password|not a URL/.test(e.message));
    }
    assert.equal(sent, 0, 'nothing was sent');
    for (const here of ['http://localhost:3000/webhook', 'http://127.0.0.2:3000/', 'http://[::1]:3000/', 'http://myapp.localhost:3000/hook']) {
      assert.equal(handlerUrlProblem(here), undefined, here);
    }
  });
});
