import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { ApiMemory, refusesChat } from '../../src/chat/apiMemory';
import { waitWithCountdown } from '../../src/chat/countdown';
import { ServiceError } from '../../src/service/errors';

describe('what the chat learns about a deployment', () => {
  it('remembers the API per resource and deployment, not for the others', () => {
    const m = new ApiMemory();
    m.remember('https://a.openai.azure.com', 'coder', 'responses');
    assert.equal(m.get('https://a.openai.azure.com', 'coder'), 'responses');
    assert.equal(m.get('https://a.openai.azure.com', 'gpt-4o'), undefined);
    assert.equal(m.get('https://b.openai.azure.com', 'coder'), undefined);
  });

  it('takes only the service\'s 400 OperationNotSupported as "served on the Responses API only"', () => {
    const refusal = new ServiceError({ kind: 'http', host: 'h', status: 400, code: 'OperationNotSupported' });
    assert.equal(refusesChat(refusal), true);
    assert.equal(refusesChat(new ServiceError({ kind: 'http', host: 'h', status: 404, code: 'OperationNotSupported' })), false);
    assert.equal(refusesChat(new ServiceError({ kind: 'http', host: 'h', status: 400, code: 'content_filter' })), false);
    assert.equal(refusesChat(Object.assign(new Error('x'), { status: 400, code: 'OperationNotSupported' })), false);
    assert.equal(refusesChat(undefined), false);
  });
});

describe('rate-limit countdown', () => {
  it('counts down each second and ends after the whole wait', async function () {
    this.timeout(10_000);
    const ticks: number[] = [];
    const t0 = Date.now();
    await waitWithCountdown(2_500, new AbortController().signal, (s) => ticks.push(s));
    assert.deepEqual(ticks, [3, 2, 1]);
    assert.ok(Date.now() - t0 >= 2_900, `ended after ${Date.now() - t0} ms`);
  });

  it('leaves nothing behind: no timer still running, no listener on a signal that lives on', async function () {
    this.timeout(10_000);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const panel = new AbortController();
    await new Promise((next) => setImmediate(next)); // after mocha has started its own timer for this test
    const before = timers();
    await waitWithCountdown(900, panel.signal);
    await new Promise((next) => setImmediate(next)); // out of the timer's own callback
    assert.equal(getEventListeners(panel.signal, 'abort').length, 0, "the panel's signal keeps no listener per wait");
    assert.equal(timers(), before, 'the countdown stopped ticking');
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('stopped')), 50);
    await assert.rejects(waitWithCountdown(5_000, stop.signal), /stopped/);
    await new Promise((next) => setImmediate(next));
    assert.equal(timers(), before, 'stopping ends the countdown too');
  });

  it('ends at once when the user stops, before or during the wait', async () => {
    const stopped = new AbortController();
    stopped.abort(new Error('stopped'));
    await assert.rejects(waitWithCountdown(5_000, stopped.signal), /stopped/);
    const later = new AbortController();
    const t0 = Date.now();
    setTimeout(() => later.abort(new Error('stopped later')), 100);
    await assert.rejects(waitWithCountdown(5_000, later.signal), /stopped later/);
    assert.ok(Date.now() - t0 < 1_000);
  });
});
