import assert from 'node:assert/strict';
import { parseSipParty } from '../../src/webhooks/inspect/sipParty';

describe('SIP From / To (RFC 3261 name-addr)', () => {
  it("reads the RFC's own From examples (§20.20)", () => {
    assert.deepEqual(parseSipParty('"A. G. Bell" <sip:agb@bell-telephone.com> ;tag=a48s'), {
      parsed: true,
      name: 'A. G. Bell',
      address: 'sip:agb@bell-telephone.com',
      params: ';tag=a48s',
    });
    assert.deepEqual(parseSipParty('sip:+12125551212@server.phone2net.com;tag=887s'), {
      parsed: true,
      address: 'sip:+12125551212@server.phone2net.com',
      params: ';tag=887s',
    });
    assert.deepEqual(parseSipParty('Anonymous <sip:c8oqz84zk7z@privacy.org>;tag=hyh8'), {
      parsed: true,
      name: 'Anonymous',
      address: 'sip:c8oqz84zk7z@privacy.org',
      params: ';tag=hyh8',
    });
  });

  it("reads the RFC's own To examples (§20.39)", () => {
    assert.deepEqual(parseSipParty('The Operator <sip:operator@cs.columbia.edu>;tag=287447'), {
      parsed: true,
      name: 'The Operator',
      address: 'sip:operator@cs.columbia.edu',
      params: ';tag=287447',
    });
    assert.deepEqual(parseSipParty('sip:+12125551212@server.phone2net.com'), { parsed: true, address: 'sip:+12125551212@server.phone2net.com', params: '' });
  });

  it('takes the address from the brackets after the quoted name, never from a <…> inside it', () => {
    assert.deepEqual(parseSipParty('"<sip:ceo@corp.example>" <sip:attacker@evil.example>'), {
      parsed: true,
      name: '<sip:ceo@corp.example>',
      address: 'sip:attacker@evil.example',
      params: '',
    });
    assert.deepEqual(parseSipParty('"<img src=x onerror=alert(1)>" <sip:+15550100@pstn.example>;tag=a1'), {
      parsed: true,
      name: '<img src=x onerror=alert(1)>',
      address: 'sip:+15550100@pstn.example',
      params: ';tag=a1',
    });
  });

  it("unescapes a quoted name's quoted-pairs, and keeps a name's angle brackets and semicolons as its own", () => {
    assert.deepEqual(parseSipParty('"Say \\"hi\\" \\\\ <x>;y" <sips:bob@biloxi.example.com;transport=tls>;tag=1'), {
      parsed: true,
      name: 'Say "hi" \\ <x>;y',
      address: 'sips:bob@biloxi.example.com;transport=tls',
      params: ';tag=1',
    });
    assert.deepEqual(parseSipParty('<tel:+15550100>'), { parsed: true, address: 'tel:+15550100', params: '' });
    assert.deepEqual(parseSipParty('"" <sip:a@b.example>'), { parsed: true, address: 'sip:a@b.example', params: '' }, 'an empty name is no name');
  });

  it('keeps a value that does not follow the grammar whole, marked unparsed', () => {
    for (const raw of [
      'sip:[Open Settings](command:workbench.action.files.newUntitledFile)@evil.example',
      '"unterminated <sip:a@b.example>',
      '"A" sip:a@b.example',
      'Bob <sip:a@b.example',
      'Bob <not a uri>',
      '<sip:a@b.example> trailing words',
      'just some words',
      '$(zap) <sip:a@b.example>',
      '"a" <sip:a@b.example>;tag=x "b"',
    ]) {
      assert.deepEqual(parseSipParty(raw), { parsed: false, raw }, raw);
    }
    assert.deepEqual(parseSipParty('<sip:a@b.example>;lr'), { parsed: true, address: 'sip:a@b.example', params: ';lr' }, 'a param needs no value');
    assert.equal(parseSipParty(undefined), undefined);
    assert.equal(parseSipParty('  '), undefined);
  });
});
