import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliveryView } from '../../src/webhooks/inspect/deliveryView';
import { forwardUrlProblem, maskedUrl } from '../../src/webhooks/send/forward';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { EventStore } from '../../src/webhooks/store/stores';
import { eventually, startReceiver } from '../support/receiver';

const event = (id: string) => JSON.stringify({ object: 'event', id, type: 'response.completed', created_at: 1, data: { id: 'resp_1' } });

describe('a forward URL that carries a credential', () => {
  const secret = generateSecret();
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'aoai-fwd-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** One signed delivery through a listener forwarding to `target(appUrl)`, recorded in an event store on disk. */
  async function forwardTo(target: (appUrl: string) => string) {
    const app = await startReceiver();
    const store = new EventStore(join(dir, 'events.jsonl'));
    await store.load();
    const records: DeliveryRecord[] = [];
    const l = new WebhookListener({
      secrets: () => [{ endpointId: 'we_1', secret }],
      forwardTo: () => target(app.url),
      // The delivered record is not changed: the forward's answer is its next version.
      onForwarded: (r, forward) => {
        const next = { ...r, forward };
        records.push(next);
        void store.put(next);
      },
    });
    await l.start();
    try {
      const body = event('evt_1');
      const res = await fetch(`${l.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_1', body) }, body });
      assert.equal(res.status, 200);
      const r = await eventually(() => records[0]);
      await store.flush();
      return { r, app, onDisk: readFileSync(join(dir, 'events.jsonl'), 'utf8') };
    } finally {
      await l.stop();
      await app.close();
    }
  }

  it('a user name and password in the URL: nothing is sent, the event says why, and the password is nowhere', async () => {
    const { r, app, onDisk } = await forwardTo((url) => url.replace('http://', 'http://admin:hunter2@'));
    assert.equal(app.received.length, 0, 'the app was not called');
    assert.match(r.forward?.error ?? '', /^The forward URL holds a user name or password, so nothing is sent to it .*: use http:\/\/127\.0\.0\.1:\d+\/webhook and let the app check/);
    assert.match(r.forward?.url ?? '', /^http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/webhook$/);
    assert.equal(onDisk.includes('hunter2'), false, 'not in the events file');
    assert.equal(JSON.stringify(deliveryView(r)).includes('hunter2'), false, 'not in the inspector');
  });

  it('a token in the query: the app gets the URL as given, the event, its file and the inspector show the values masked', async () => {
    const { r, app, onDisk } = await forwardTo((url) => `${url}?token=tok-123&tenant=acme`);
    assert.equal(app.received.length, 1);
    assert.equal(r.forward?.status, 200);
    assert.match(r.forward?.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/webhook\?token=\*\*\*&tenant=\*\*\*$/);
    assert.equal(onDisk.includes('tok-123'), false);
    const view = deliveryView(r, { appUrl: `${app.url}?token=tok-123` });
    assert.equal(JSON.stringify(view).includes('tok-123'), false);
    assert.match(view.appUrl ?? '', /\?token=\*\*\*$/);
  });

  it('what is refused and how URLs are masked', () => {
    assert.equal(forwardUrlProblem('http://localhost:3000/webhook'), undefined);
    assert.equal(forwardUrlProblem('http://localhost:3000/webhook?token=x'), undefined, 'a query token is the app\'s business: masked, not refused');
    assert.match(forwardUrlProblem('https://user@app.example/hook') ?? '', /holds a user name or password/);
    assert.match(forwardUrlProblem('localhost:3000?token=secret') ?? '', /^The forward URL "localhost:3000\?\*\*\*" is not an http:\/\/ or https:\/\/ URL/);
    assert.equal(maskedUrl('http://localhost:3000/webhook'), 'http://localhost:3000/webhook');
    assert.equal(maskedUrl('http://localhost:3000/w?a=1&b&a=2#frag'), 'http://localhost:3000/w?a=***&b=***&a=***');
    assert.equal(maskedUrl('not a url?key=1'), 'not a url?***');
    assert.equal(maskedUrl('user:pw@host'), '***@host');
    assert.match(forwardUrlProblem('http://[nonsense') ?? '', /is not a URL/);
  });
});
