import assert from 'node:assert/strict';
import { parseCloudflaredUrl, parseNgrokApi } from '../../src/tunnels/parsers';

describe('a tunnel URL is only ever this tunnel\'s', () => {
  it('cloudflared: its usual failure line (naming api.trycloudflare.com) gives no URL', () => {
    const failure =
      '2024-05-01T10:00:00Z ERR Error unmarshaling QuickTunnel response error="failed to request quick Tunnel: ' +
      'Post \\"https://api.trycloudflare.com/tunnel\\": dial tcp: lookup api.trycloudflare.com: no such host"';
    assert.equal(parseCloudflaredUrl(failure), undefined);
    assert.equal(parseCloudflaredUrl('failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": EOF'), undefined);
    assert.equal(parseCloudflaredUrl(`${failure}\n|  https://seasonal-deck-organisms-sf.trycloudflare.com  |`), 'https://seasonal-deck-organisms-sf.trycloudflare.com');
  });

  it('ngrok API: another agent\'s tunnel (another port) is never taken', () => {
    const api = (addr: string) => JSON.stringify({ tunnels: [{ public_url: 'https://other.ngrok-free.app', config: { addr } }] });
    assert.equal(parseNgrokApi(api('http://localhost:3000'), 51234), undefined);
    assert.equal(parseNgrokApi(api('http://localhost:151234'), 51234), undefined);
    assert.equal(parseNgrokApi(api('http://localhost:51234'), 51234), 'https://other.ngrok-free.app');
    assert.equal(parseNgrokApi(api('51234'), 51234), 'https://other.ngrok-free.app');
  });
});
