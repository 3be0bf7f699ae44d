/** What a localtunnel server answers is read strictly: a tunnel, or nothing. */
import assert from 'node:assert/strict';
import { parseGrant } from '../../src/tunnels/localtunnelClient';

describe('localtunnel server answers', () => {
  it('takes a tunnel: its id, port, URL and connection count (at most 10, at least 1)', () => {
    assert.deepEqual(parseGrant({ id: 'nice-shrimp-57', port: 33895, max_conn_count: 10, url: 'http://nice-shrimp-57.localhost' }), {
      id: 'nice-shrimp-57',
      port: 33895,
      url: 'http://nice-shrimp-57.localhost',
      maxConn: 10,
      ip: undefined,
    });
    assert.equal(parseGrant({ id: 'a', port: 1, max_conn_count: 500, url: 'https://a.loca.lt' })?.maxConn, 10);
    assert.equal(parseGrant({ id: 'a', port: 1, max_conn_count: 0, url: 'https://a.loca.lt' })?.maxConn, 1);
    assert.equal(parseGrant({ id: 'a', port: 1, url: 'https://a.loca.lt', ip: '203.0.113.7' })?.ip, '203.0.113.7');
  });

  it('refuses anything else: an error body, a port out of range, a URL that is not http(s)', () => {
    for (const body of [
      undefined,
      'text',
      { message: 'Invalid subdomain.' },
      { id: 'a', port: 0, url: 'https://a.loca.lt' },
      { id: 'a', port: 70000, url: 'https://a.loca.lt' },
      { id: 'a', port: '80', url: 'https://a.loca.lt' },
      { id: 'a', port: 80, url: 'javascript:alert(1)' },
      { id: 'a', port: 80, url: 'not a url' },
    ]) {
      assert.equal(parseGrant(body), undefined, JSON.stringify(body));
    }
  });
});
