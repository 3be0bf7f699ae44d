import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSecret } from '../../src/webhooks/signature';
import { checkVerifier } from '../../src/webhooks/send/verifierCheck';
import { startAnsweringApp } from '../support/answeringApp';
import { freePort } from '../support/ports';

const secret = generateSecret();

describe("checking the user's webhook verifier", () => {
  it('an app that verifies with standardwebhooks: takes the signed delivery, refuses the tampered and the stale one', async () => {
    const app = await startAnsweringApp((body, headers) => {
      try {
        new Webhook(secret).verify(body, headers as Record<string, string>);
        return { status: 204 };
      } catch {
        return { status: 400, body: 'invalid signature' };
      }
    });
    try {
      const report = await checkVerifier(app.url, secret);
      assert.deepEqual(report.results.map((r) => [r.probe, r.answer.status, r.passed]), [['signed', 204, true], ['tampered', 400, true], ['stale', 400, true]]);
      assert.equal(report.sound, true);
      assert.match(report.summary, /verifier is sound/);
      assert.equal(app.received.length, 3, 'each sent once');
      assert.notEqual(app.received[0].body, app.received[1].body, 'the tampered body differs from the signed one');
      assert.match(app.received[1].body, /"id":"resp_tampered_/, 'the response it names was changed, as an attacker would');
      for (const r of app.received) assert.deepEqual([r.headers['content-type'], r.headers['user-agent']], ['application/json', 'aoai-workbench verifier check']);
      const ages = app.received.map((r) => Math.round(Date.now() / 1000 - Number(r.headers['webhook-timestamp'])));
      assert.ok(ages[0] <= 5 && ages[2] >= 595 && ages[2] <= 605, `the stale one is signed 10 minutes ago: ${ages}`);
    } finally {
      await app.close();
    }
  });

  it('an app that does not verify: accepting the tampered delivery is reported (any 2xx is taking it)', async () => {
    const app = await startAnsweringApp([{ status: 299 }]);
    try {
      const report = await checkVerifier(app.url, secret);
      assert.equal(report.sound, false);
      assert.deepEqual(report.results.map((r) => r.passed), [true, false, false]);
      assert.match(report.summary, /accepted a delivery whose body was changed after signing \(299\): it does not verify signatures/);
    } finally {
      await app.close();
    }
  });

  it('an app that verifies the signature but not the timestamp, one with another secret, and one not running', async () => {
    // Checks the HMAC itself (not with our code), but never the timestamp's age.
    const noClock = await startAnsweringApp((body, headers) => {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const mac = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
      return { status: String(headers['webhook-signature']).split(' ').includes(`v1,${mac}`) ? 200 : 401 };
    });
    const otherSecret = await startAnsweringApp((body, headers) => {
      try {
        new Webhook(generateSecret()).verify(body, headers as Record<string, string>);
        return { status: 200 };
      } catch {
        return { status: 401 };
      }
    });
    try {
      assert.match((await checkVerifier(noClock.url, secret)).summary, /accepted one signed 10 minutes ago \(200\): it does not check webhook-timestamp/);
      assert.match((await checkVerifier(otherSecret.url, secret)).summary, /refused a correctly signed delivery \(401\)/);
      const down = await checkVerifier(`http://127.0.0.1:${await freePort()}/webhook`, secret);
      assert.equal(down.sound, false);
      assert.match(down.summary, /did not answer \(ECONNREFUSED\)/);
      assert.deepEqual(down.results.map((r) => r.passed), [false, false, false], 'no answer passes no probe, not even a refusal');
    } finally {
      await noClock.close();
      await otherSecret.close();
    }
  });

  it('only a 2xx answer counts as taking a delivery: 299 is taken, a 300 redirect is a refusal', async () => {
    const now = Date.UTC(2026, 10, 22, 10, 0, 0);
    const app = await startAnsweringApp([{ status: 299 }, { status: 300 }, { status: 300 }]);
    try {
      const report = await checkVerifier(app.url, secret, now);
      assert.deepEqual(report.results.map((r) => [r.probe, r.expected, r.passed]), [['signed', 'accept', true], ['tampered', 'refuse', true], ['stale', 'refuse', true]]);
      assert.equal(report.sound, true);
      assert.equal(report.summary, "The app's verifier is sound: it took the signed delivery (299) and refused the tampered (300) and the stale one (300).");
      // The stale probe is signed ten minutes before the check, the others at its time.
      assert.deepEqual(app.received.map((r) => Number(r.headers['webhook-timestamp'])), [now / 1000, now / 1000, now / 1000 - 600]);
      assert.match(app.received[1].body, /"id":"resp_tampered_/);
      assert.equal(app.received[0].headers['user-agent'], 'aoai-workbench verifier check');
    } finally {
      await app.close();
    }
  });

  it('an app that takes a stale delivery is told how old it was and why that matters', async () => {
    // Refuses only a body it can see was changed; never looks at the timestamp.
    const app = await startAnsweringApp((body) => ({ status: body.includes('resp_tampered_') ? 401 : 202 }));
    try {
      const report = await checkVerifier(app.url, secret);
      assert.deepEqual(report.results.map((r) => r.passed), [true, true, false]);
      assert.equal(report.sound, false);
      assert.equal(
        report.summary,
        'The app verifies signatures, but accepted one signed 10 minutes ago (202): it does not check webhook-timestamp, so a captured delivery can be replayed.',
      );
    } finally {
      await app.close();
    }
  });
});
