/** How the listener summarises a stranger's flood of unsigned deliveries. */
import assert from 'node:assert/strict';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { capHeader, MAX_HEADER_VALUE, RejectionLimiter, senderOf } from '../../src/webhooks/receive/rejections';

describe('rejected deliveries', () => {
  it('name their sender: the tunnel\'s client address first, else the socket\'s peer', () => {
    assert.equal(senderOf({ 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': '198.51.100.1' }, '127.0.0.1'), '203.0.113.9');
    assert.equal(senderOf({ 'x-forwarded-for': ' 198.51.100.1 , 10.0.0.1' }, '127.0.0.1'), '198.51.100.1');
    assert.equal(senderOf({ 'x-forwarded-for': '  ' }, '127.0.0.1'), '127.0.0.1');
    assert.equal(senderOf({}, undefined), 'unknown');
    assert.equal(senderOf({ 'x-forwarded-for': 'a'.repeat(500) }, undefined).length, 64, 'a long claimed address is cut');
  });

  it('cap header values, saying how long the value was', () => {
    assert.equal(capHeader('x'.repeat(MAX_HEADER_VALUE)), 'x'.repeat(MAX_HEADER_VALUE));
    assert.equal(capHeader('x'.repeat(16_384)), `${'x'.repeat(MAX_HEADER_VALUE)}… (16384 characters)`);
  });

  it('are kept one by one up to the window\'s limit, then counted per sender in one summary, busiest first', () => {
    const summaries: DeliveryRecord[] = [];
    const limiter = new RejectionLimiter((r) => summaries.push(r), { perWindow: 2, windowMs: 60_000, maxSenders: 2 });
    const admitted = ['a', 'a', 'a', 'b', 'b', 'b', 'b', 'c', 'd'].map((s) => limiter.admit(s));
    assert.deepEqual(admitted, [true, true, false, false, false, false, false, false, false]);
    limiter.endWindow();
    assert.equal(summaries.length, 1);
    const [s] = summaries;
    assert.deepEqual([s.verdict, s.status, s.count, s.body, s.headers], ['rejected', 400, 7, '', {}]);
    assert.equal(s.reason, '7 rejected deliveries from b (4), other senders (2), a (1) within 60 s: counted, not kept one by one.');
    assert.equal(s.summary, '7 rejected deliveries from 3 senders', 'what its row says');
    // A new window starts fresh: kept one by one again, nothing left to report.
    assert.equal(limiter.admit('z'), true);
    limiter.endWindow();
    assert.equal(summaries.length, 1, 'no summary when nothing was counted');
  });

  it('report thousands with separators, when the window ends by itself', async () => {
    const summaries: DeliveryRecord[] = [];
    const limiter = new RejectionLimiter((r) => summaries.push(r), { perWindow: 0, windowMs: 100 });
    for (let i = 0; i < 1204; i++) limiter.admit('198.51.100.7');
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(summaries.length, 1);
    assert.match(summaries[0].reason ?? '', /^1,204 rejected deliveries from 198\.51\.100\.7 \(1,204\) within 0 s/);
    assert.equal(summaries[0].summary, '1,204 rejected deliveries from 198.51.100.7', 'one sender: named in the row');
  });
});
