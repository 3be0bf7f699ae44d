import assert from 'node:assert/strict';
import { EndpointError, normalizeEndpoint } from '../../src/service/connection';
import { ServiceError, parseErrorBody, parseRetryAfter } from '../../src/service/errors';

describe('error messages', () => {
  const host = 'res.openai.azure.com';

  it('reads Azure error bodies in both inner-error spellings', () => {
    const a = parseErrorBody(JSON.stringify({
      error: {
        code: 'content_filter',
        message: 'filtered',
        innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { hate: { filtered: true, severity: 'high' }, sexual: { filtered: false } } },
      },
    }));
    const b = parseErrorBody(JSON.stringify({ error: { code: 'content_filter', message: 'filtered', inner_error: { content_filter_results: { violence: { filtered: true } } } } }));
    assert.deepEqual(a.filteredCategories, ['hate']);
    assert.deepEqual(b.filteredCategories, ['violence']);
    assert.equal(parseErrorBody('<html>Bad gateway</html>').serviceMessage, '<html>Bad gateway</html>');
  });

  it('says what to do for each status a user meets', () => {
    const msg = (init: Partial<ConstructorParameters<typeof ServiceError>[0]>) => new ServiceError({ kind: 'http', host, ...init }).message;
    assert.match(msg({ status: 401, code: '401' }), /Access denied \(401\).*Check the connection's key and endpoint/);
    assert.match(msg({ status: 403 }), /Forbidden.*Cognitive Services OpenAI User/);
    assert.match(msg({ status: 404, code: 'DeploymentNotFound', deployment: 'gpt-x' }), /deployment "gpt-x" does not exist on res\.openai\.azure\.com/);
    assert.match(msg({ status: 400, code: 'content_filter', filteredCategories: ['hate', 'violence'] }), /content filter blocked this request \(hate, violence\)\. Rephrase/);
    assert.match(msg({ status: 429, retryAfterMs: 7_200 }), /Rate limit reached .*Retry in 8 seconds/);
    assert.match(msg({ status: 503 }), /failed \(HTTP 503\).*try again/);
  });

  it('names the host for network failures and says what to check', () => {
    const msg = (code: string) => new ServiceError({ kind: 'network', host: 'h.example:443', code }).message;
    assert.match(msg('ENOTFOUND'), /Could not resolve h\.example:443/);
    assert.match(msg('ECONNREFUSED'), /h\.example:443 refused the connection/);
    assert.match(msg('DEPTH_ZERO_SELF_SIGNED_CERT'), /secure connection to h\.example:443 failed/);
    assert.match(new ServiceError({ kind: 'timeout', host: 'h.example', code: 'UND_ERR_HEADERS_TIMEOUT' }).message, /did not answer in time/);
  });

  it('reads retry-after-ms first, then retry-after as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }), 1500);
    assert.equal(parseRetryAfter({ 'retry-after': '3' }), 3000);
    assert.equal(parseRetryAfter({ 'retry-after': new Date(10_000).toUTCString() }, 4_000), 6_000);
    assert.equal(parseRetryAfter({}), undefined);
  });
});

describe('endpoint normalisation', () => {
  it('accepts what people paste and returns the resource base', () => {
    assert.equal(normalizeEndpoint('https://res.openai.azure.com/'), 'https://res.openai.azure.com');
    assert.equal(normalizeEndpoint('https://res.openai.azure.com/openai/v1/'), 'https://res.openai.azure.com');
    assert.equal(normalizeEndpoint(' res.services.ai.azure.com/openai '), 'https://res.services.ai.azure.com');
    assert.equal(normalizeEndpoint('https://res.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=1'), 'https://res.openai.azure.com');
    assert.equal(normalizeEndpoint('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
    assert.equal(normalizeEndpoint('https://proxy.example/team-a/openai/v1'), 'https://proxy.example/team-a');
  });

  it('rejects what cannot be an endpoint, with a sentence that says why', () => {
    assert.throws(() => normalizeEndpoint(''), EndpointError);
    assert.throws(() => normalizeEndpoint('ftp://x'), /must start with https/);
    assert.throws(() => normalizeEndpoint('https://user:pw@x.example'), /user name or password/);
    assert.throws(() => normalizeEndpoint('https://exa mple'), /not a valid URL/);
  });
});
