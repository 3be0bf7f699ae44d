/** Per-event routes: which app an event type goes to, and the routes that are never used. */
import assert from 'node:assert/strict';
import { checkRoutes, routeFor } from '../../src/webhooks/send/routes';
import { checkDebugConfig, debugConsentKey } from '../../src/webhooks/session/debugConfig';

const A = 'http://localhost:3000/webhook';
const B = 'http://127.0.0.1:3001/hooks/batch';
const FT = 'http://[::1]:3002/ft';
const JOB = 'http://localhost:3003/job-failed';

describe('webhook routes', () => {
  it('the most specific pattern wins: an exact type, then the longest prefix.*, then *, then forwardTo', () => {
    const routes = { '*': A, 'batch.*': B, 'fine_tuning.*': FT, 'fine_tuning.job.*': FT + '/job', 'fine_tuning.job.failed': JOB };
    assert.deepEqual(routeFor('batch.completed', routes, 'http://localhost:9/fallback'), { url: B, pattern: 'batch.*' });
    assert.deepEqual(routeFor('fine_tuning.job.failed', routes), { url: JOB, pattern: 'fine_tuning.job.failed' });
    assert.deepEqual(routeFor('fine_tuning.job.succeeded', routes), { url: FT + '/job', pattern: 'fine_tuning.job.*' });
    assert.deepEqual(routeFor('response.completed', routes), { url: A, pattern: '*' });
    // The order written in the settings does not matter.
    const reversed = Object.fromEntries(Object.entries(routes).reverse());
    assert.deepEqual(routeFor('fine_tuning.job.succeeded', reversed), { url: FT + '/job', pattern: 'fine_tuning.job.*' });
    // A type no route matches: the forward URL, without a pattern; none of either: nowhere.
    assert.deepEqual(routeFor('response.completed', { 'batch.*': B }, A), { url: A });
    assert.equal(routeFor('response.completed', { 'batch.*': B }), undefined);
    assert.equal(routeFor('batchy.completed', { 'batch.*': B }), undefined, 'a prefix matches whole segments only');
    assert.deepEqual(routeFor(undefined, { 'batch.*': B, '*': A }), { url: A, pattern: '*' }, 'a delivery of no known type: the catch-all');
  });

  it('routes go only to this machine: another host, a credential, a bad pattern or URL are skipped and said', () => {
    const { routes, problems } = checkRoutes({
      'batch.*': 'http://localhost:3001/hooks/batch',
      'response.*': 'https://example.com/hooks',
      'fine_tuning.*': 'http://user:pw@127.0.0.1:3002/',
      'realtime.*.incoming': 'http://localhost:3003/',
      '*': 'not a url',
      'batch.failed': 'ftp://127.0.0.1/x',
    });
    assert.deepEqual(routes, { 'batch.*': 'http://localhost:3001/hooks/batch' });
    assert.equal(problems.length, 5);
    assert.match(problems[0], /"response\.\*" sends deliveries to example\.com, which is not this machine/);
    assert.match(problems[1], /user name or password/);
    assert.doesNotMatch(problems.join('\n'), /pw/, 'the password is never shown');
    assert.match(problems[2], /not an event type, a "prefix\.\*" or "\*"/);
    assert.match(problems[3], /does not go to a URL/);
    assert.match(problems[4], /not an http/);
    assert.deepEqual(checkRoutes([A]).routes, {});
    assert.equal(checkRoutes(undefined).problems.length, 0);
  });

  it('a launch configuration takes the same routes, refuses one off this machine, and asks again when they change', () => {
    const base = { name: 'W', forwardTo: 3000 };
    const ok = checkDebugConfig({ ...base, routes: { 'batch.*': B } });
    assert.ok(ok.ok);
    assert.deepEqual(ok.config.routes, { 'batch.*': B });
    const far = checkDebugConfig({ ...base, routes: { 'batch.*': 'http://10.0.0.5:3001/' } });
    assert.ok(!far.ok);
    assert.match(far.error, /"routes": .*10\.0\.0\.5.*not this machine/);
    const plain = checkDebugConfig(base);
    assert.ok(plain.ok && !('routes' in plain.config));
    assert.notEqual(debugConsentKey(ok.config, 'c'), debugConsentKey(plain.ok ? plain.config : ok.config, 'c'), 'new routes: asked again');
  });
});
