import assert from 'node:assert/strict';
import { explainForwardError, FORWARD_TIMEOUT_MS } from '../../src/webhooks/send/forwardErrors';

// What the delivery view says when the user's app could not be reached: each code gets its own advice.
describe('a failed forward explained to the user', () => {
  it('says the app is not running when the connection is refused', () => {
    assert.equal(explainForwardError('ECONNREFUSED'), 'ECONNREFUSED: nothing is listening there. Is the app running, on that port?');
  });

  it('says the app did not answer in time, with the real timeout in seconds, for both undici timeouts', () => {
    assert.equal(FORWARD_TIMEOUT_MS, 10_000);
    assert.equal(explainForwardError('UND_ERR_HEADERS_TIMEOUT'), 'UND_ERR_HEADERS_TIMEOUT: the app did not answer within 10 s.');
    assert.equal(explainForwardError('UND_ERR_BODY_TIMEOUT'), 'UND_ERR_BODY_TIMEOUT: the app did not answer within 10 s.');
  });

  it('tells an unresolvable host apart from an app that hung up', () => {
    assert.equal(explainForwardError('ENOTFOUND'), 'ENOTFOUND: the host name does not resolve.');
    assert.equal(explainForwardError('ECONNRESET'), 'ECONNRESET: the app closed the connection without answering.');
  });

  it('asks for proxy credentials on a 407 and names the proxy status for any other proxy refusal', () => {
    assert.match(explainForwardError('PROXY_407'), /^PROXY_407: the proxy in http\.proxy \(or HTTPS_PROXY\) asks for a user name and password\. .*http\.noProxy\.$/);
    assert.equal(explainForwardError('PROXY_502'), 'PROXY_502: the proxy in http.proxy (or HTTPS_PROXY) refused to connect to the app (502).');
  });

  it('shows an unknown code as it is, and does not take codes that only look like a proxy status for one', () => {
    assert.equal(explainForwardError('EPIPE'), 'EPIPE');
    assert.equal(explainForwardError('xPROXY_502'), 'xPROXY_502');
    assert.equal(explainForwardError('PROXY_5021'), 'PROXY_5021');
    assert.equal(explainForwardError('PROXY_50'), 'PROXY_50');
  });
});
