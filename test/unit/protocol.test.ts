import assert from 'node:assert/strict';
import { parseHostMessage, parseViewMessage, isSafeLink } from '../../src/webview/chat/protocol';

describe('webview message protocol', () => {
  it('accepts well-formed messages and drops everything else', () => {
    assert.deepEqual(parseViewMessage({ type: 'send', text: 'hi' }), { type: 'send', text: 'hi' });
    assert.equal(parseViewMessage({ type: 'send', text: '   ' }), undefined);
    assert.equal(parseViewMessage({ type: 'send', text: 5 }), undefined);
    assert.equal(parseViewMessage({ type: 'eval', code: 'x' }), undefined);
    assert.equal(parseViewMessage('send'), undefined);
    assert.deepEqual(parseViewMessage({ type: 'setParams', params: { temperature: 0.5, extra: 1 } }), { type: 'setParams', params: { temperature: 0.5 } });
    assert.equal(parseViewMessage({ type: 'setParams', params: { temperature: 7 } }), undefined);
    assert.equal(parseViewMessage({ type: 'setParams', params: { apiVersion: '../x' } }), undefined);
    assert.deepEqual(parseViewMessage({ type: 'setParams', params: { maxTokens: null } }), { type: 'setParams', params: { maxTokens: undefined } });
    assert.equal(parseHostMessage({ type: 'delta', turnId: 't', text: 1 }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'delta', turnId: 't', text: 'x' }), { type: 'delta', turnId: 't', text: 'x' });
  });

  it('lets only http, https and mailto links out', () => {
    assert.ok(isSafeLink('https://learn.microsoft.com'));
    assert.ok(isSafeLink('mailto:a@b.c'));
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'vscode://x', 'file:///etc/passwd', 'command:workbench.action.quit', 'nope']) {
      assert.equal(isSafeLink(bad), false, bad);
    }
  });
});
