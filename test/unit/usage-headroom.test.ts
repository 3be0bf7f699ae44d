/**
 * The usage view's rate-limit headroom: what was left against a limit the service told (its
 * headers, or Resource Manager's per-minute limits), what was left only when no limit is known,
 * and the limits' passage through the page's protocol.
 */
import assert from 'node:assert/strict';
import { ago, headroomFigures, shareLeft } from '../../src/webview/usage/headroom';
import { parseUsageHostMessage } from '../../src/webview/usage/protocol';

const ARM = { connectionId: 'c1', deployment: 'gpt-4o', requestsPerMinute: 300, tokensPerMinute: 50_000 };

describe('usage view: rate-limit headroom', () => {
  it('says what was left of the deployment\'s per-minute limit from Resource Manager', () => {
    const [requests, tokens] = headroomFigures({ remainingRequests: 280, remainingTokens: 38_200 }, ARM);
    assert.equal(tokens.text, 'tokens: 38,200 of 50,000 left per minute');
    assert.equal(requests.text, 'requests: 280 of 300 left per minute');
    assert.equal(shareLeft(tokens), 0.764);
  });

  it('takes the limit the headers gave with what was left, saying per minute only when Resource Manager agrees', () => {
    const [, tokens] = headroomFigures({ remainingRequests: 5, remainingTokens: 8000, limitRequests: 10, limitTokens: 10_000 });
    assert.equal(tokens.text, 'tokens: 8,000 of 10,000 left');
    assert.equal(tokens.perMinute, false);
    const agreed = headroomFigures({ remainingTokens: 8000, limitTokens: 50_000 }, ARM);
    assert.deepEqual(agreed.map((f) => f.text), ['tokens: 8,000 of 50,000 left per minute']);
    // A header limit of another period (per 10 s) is the one `left` counts down from.
    const tenSeconds = headroomFigures({ remainingRequests: 40, limitRequests: 50 }, ARM);
    assert.equal(tenSeconds[0].text, 'requests: 40 of 50 left');
  });

  it('shows what was left only, with no meter, when no limit is known: never an invented one', () => {
    const figures = headroomFigures({ remainingRequests: 12, remainingTokens: 900 });
    assert.deepEqual(figures.map((f) => f.text), ['requests: 12 left (limit not known)', 'tokens: 900 left (limit not known)']);
    assert.deepEqual(figures.map(shareLeft), [undefined, undefined]);
    assert.deepEqual(figures.map((f) => f.perMinute), [false, false]);
    assert.deepEqual(headroomFigures({ remainingTokens: 5 }, { connectionId: 'c1', deployment: 'gpt-4o', requestsPerMinute: 6 }).map((f) => f.limit), [undefined]);
  });

  it('keeps the meter between empty and full when the figures disagree', () => {
    const [over] = headroomFigures({ remainingTokens: 60_000 }, { ...ARM, requestsPerMinute: undefined });
    assert.equal(shareLeft(over), 1);
    const [zero] = headroomFigures({ remainingTokens: 0, limitTokens: 0 });
    assert.equal(shareLeft(zero), undefined);
  });

  it('says when, as a person says it', () => {
    const now = 1_790_000_000_000;
    const said = [20_000, 60_000, 120_000, 3_600_000, 3 * 3_600_000, 48 * 3_600_000, 3 * 86_400_000, -5000].map((before) => ago(now - before, now));
    assert.deepEqual(said, ['just now', '1 min ago', '2 min ago', '1 h ago', '3 h ago', '2 days ago', '3 days ago', 'just now']);
  });

  it('passes the limits to the page checked, and refuses a message whose limits are not counts', () => {
    const summary = { days: [], deployments: [], connections: [], records: 0, skipped: 0 };
    const filter = { connection: '', source: '' };
    const ok = parseUsageHostMessage({ type: 'summary', summary, filter, limits: [ARM] });
    assert.deepEqual(ok && ok.type === 'summary' && ok.limits, [ARM]);
    const none = parseUsageHostMessage({ type: 'summary', summary, filter });
    assert.deepEqual(none && none.type === 'summary' && none.limits, []);
    assert.equal(parseUsageHostMessage({ type: 'summary', summary, filter, limits: [{ ...ARM, tokensPerMinute: '50000' }] }), undefined);
    assert.equal(parseUsageHostMessage({ type: 'summary', summary, filter, limits: [{ deployment: 'x' }] }), undefined);
  });
});
