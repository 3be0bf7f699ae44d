/** What a repository's launch.json may do without asking: forward only to this machine, and ask once per configuration. */
import assert from 'node:assert/strict';
import { checkDebugConfig, debugConsentKey, debugConsentText, forwardRefusal, type WebhookDebugConfig } from '../../src/webhooks/session/debugConfig';
import { isLoopbackUrl } from '../../src/webhooks/send/forwardUrl';

const config = (raw: Record<string, unknown>): WebhookDebugConfig => {
  const r = checkDebugConfig({ name: 'Hooks', ...raw });
  if (!r.ok) throw new Error(r.error);
  return r.config;
};

describe('the webhook debug configuration, as a repository could write it', () => {
  it('forwards only to this machine by address, unless the user allows more', () => {
    for (const url of ['http://localhost:3000/w', 'http://127.0.0.1/w', 'http://127.8.9.10:1/w', 'https://[::1]:8443/w', 3000]) {
      assert.equal(forwardRefusal(config({ forwardTo: url }), false), undefined, String(url));
    }
    const refused = new RegExp(
      String.raw`which is not this machine\. A launch configuration forwards only to localhost, 127\.0\.0\.1 or \[::1\], ` +
        String.raw`unless you allow more in your user settings \("aoaiWorkbench\.webhooks\.debugForwardToAnyHost"\)\.$`,
    );
    for (const url of [
      'https://attacker.example/hooks',
      'http://127.attacker.example/w',
      'http://app.localhost/w',
      'http://10.0.0.5/w',
      'http://[::2]/w',
      'http://128.0.0.1/w',
      'http://1.127.0.0/w',
    ]) {
      const why = forwardRefusal(config({ forwardTo: url }), false);
      assert.match(why ?? '', refused, url);
      assert.equal(forwardRefusal(config({ forwardTo: url }), true), undefined, 'allowed by the user');
    }
    assert.match(forwardRefusal(config({ forwardTo: 'https://attacker.example:8443/hooks' }), false)!, /^"forwardTo" sends deliveries to attacker\.example:8443, /);
    assert.equal(isLoopbackUrl('http://LOCALHOST:1/'), true, 'URLs lower-case their host');
  });

  it('asks again whenever what it does changes, and not when only its name or the order of its events does', () => {
    const base = config({ forwardTo: 3000, endpoint: 'we_1', eventTypes: ['batch.completed', 'batch.failed'], tunnel: 'ngrok' });
    const key = debugConsentKey(base, 'c1');
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.equal(debugConsentKey({ ...base, name: 'Renamed' }, 'c1'), key);
    assert.equal(debugConsentKey({ ...base, eventTypes: ['batch.failed', 'batch.completed'] }, 'c1'), key);
    const changed = [
      debugConsentKey({ ...base, forwardTo: 'http://localhost:3001/webhook' }, 'c1'),
      debugConsentKey(base, 'c2'),
      debugConsentKey({ ...base, endpoint: 'we_2' }, 'c1'),
      debugConsentKey({ ...base, endpoint: undefined }, 'c1'),
      debugConsentKey({ ...base, eventTypes: ['batch.completed'] }, 'c1'),
      debugConsentKey({ ...base, tunnel: 'localtunnel' }, 'c1'),
      debugConsentKey({ ...base, tunnel: undefined }, 'c1'),
    ];
    assert.equal(new Set([key, ...changed]).size, changed.length + 1);
  });

  it('names the forward host and what changes on the service before anything starts', () => {
    const repoint = debugConsentText(config({ forwardTo: 'https://app.example.com:8443/in', endpoint: 'we_prod', connection: 'Work' }), 'Work', 'Cloudflare quick tunnel');
    assert.equal(repoint.message, 'Start "Hooks"? It forwards the webhook deliveries of "Work" to app.example.com:8443.');
    assert.equal(
      repoint.detail,
      [
        'Every verified delivery goes to https://app.example.com:8443/in.',
        'On "Work": Webhook endpoint we_prod is pointed at this listener until the session ends (its URL is kept and put back after).',
        'A Cloudflare quick tunnel makes the listener reachable from the internet while the session runs.',
        'You are asked once for this configuration; if it changes, you are asked again.',
      ].join('\n\n'),
    );
    const create = debugConsentText(config({ forwardTo: 3000, eventTypes: ['batch.completed', 'batch.failed'] }), 'Local', undefined);
    assert.match(create.detail, /On "Local": A new webhook endpoint for batch\.completed, batch\.failed is created for the session \(deleted when it ends\)\./);
    assert.match(create.detail, /\n\nNo tunnel: the service runs on this machine\.\n\n/);
  });
});
