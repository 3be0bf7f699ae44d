import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainDevTunnelFailure, explainNgrokFailure, parseCloudflaredUrl, parseDevTunnelUrl, parseNgrokApi, parseNgrokLog } from '../../src/tunnels/parsers';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'tunnels', name), 'utf8');

describe('tunnel CLI output parsers (recorded output)', () => {
  it('cloudflared: the quick tunnel URL from its banner', () => {
    assert.equal(parseCloudflaredUrl(fixture('cloudflared.txt')), 'https://marble-kinds-sunset-retreat.trycloudflare.com');
    assert.equal(parseCloudflaredUrl(fixture('cloudflared.txt').split('\n').slice(0, 2).join('\n')), undefined, 'nothing before the URL is printed');
  });

  it('ngrok: the https URL from the JSON log, or from the agent API for our port', () => {
    assert.equal(parseNgrokLog(fixture('ngrok.jsonl')), 'https://3f2a-203-0-113-7.ngrok-free.app');
    assert.equal(parseNgrokApi(fixture('ngrok-api.json'), 51234), 'https://3f2a-203-0-113-7.ngrok-free.app');
    assert.equal(parseNgrokApi('not json', 1), undefined);
    assert.match(explainNgrokFailure(fixture('ngrok-authtoken.txt')) ?? '', /ngrok config add-authtoken/);
  });

  it('devtunnel: the browser URL, never the -inspect one, in both output formats', () => {
    assert.equal(parseDevTunnelUrl(fixture('devtunnel.txt')), 'https://k3m9qz1x-51234.euw.devtunnels.ms');
    assert.equal(parseDevTunnelUrl(fixture('devtunnel-old.txt')), 'https://k3m9qz1x.euw.devtunnels.ms:51234');
    assert.match(explainDevTunnelFailure('Error: not logged in.') ?? '', /devtunnel user login/);
  });
});
