/**
 * Incoming calls on the emulator: `POST /emulator/calls` rings one and delivers a signed
 * `realtime.call.incoming`; the official client's `realtime.calls` accept/reject/refer/hang up,
 * moving the state `GET /emulator/calls` shows; a call nobody answers ends by itself.
 */
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import { Webhook } from 'standardwebhooks';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { eventually, startReceiver } from '../support/receiver';

interface ListedCall {
  call_id: string;
  state: string;
  status_code?: number;
  target_uri?: string;
  end_reason?: string;
  session?: { model?: string };
}

describe('emulator: incoming calls', () => {
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    emu = await startEmulator({ config: { calls: { ringMs: 800 } } });
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(() => emu.close());

  const ring = async (body: unknown = { from: 'sip:+14155550100@carrier.example', to: 'sip:proj_x@swedencentral.sip.ai.azure.com' }) => {
    const res = await fetch(`${emu.url}/emulator/calls`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { call_id: string; error?: { param: string } } };
  };
  const listed = async (id: string): Promise<ListedCall | undefined> => {
    const res = await fetch(`${emu.url}/emulator/calls`, { headers: { 'api-key': emu.apiKey } });
    return ((await res.json()) as { data: ListedCall[] }).data.find((c) => c.call_id === id);
  };

  it('rings a call: 201 {call_id} and a realtime.call.incoming delivery with From, To, Call-ID and the extra headers (auth headers dropped)', async () => {
    const receiver = await startReceiver();
    const dash = new OpenAI({ baseURL: `${emu.url}/openai/v1/dashboard`, apiKey: emu.apiKey, maxRetries: 0 });
    const ep = await dash.webhooks.create({ name: 'calls', url: receiver.url, event_types: ['realtime.call.incoming'] });
    try {
      const { status, body } = await ring({
        from: 'sip:+14155550100@carrier.example',
        to: 'sip:proj_x@swedencentral.sip.ai.azure.com',
        headers: { 'X-Customer': 'gold', Authorization: 'Digest secret' },
      });
      assert.equal(status, 201);
      assert.match(body.call_id, /^rtc_[0-9a-f]{32}$/);
      const [got] = await receiver.next(1);
      const event = new Webhook(ep.signing_secret).verify(got.body, got.headers as Record<string, string>) as {
        type: string;
        data: { call_id: string; sip_headers: Array<{ name: string; value: string }> };
      };
      assert.equal(event.type, 'realtime.call.incoming');
      assert.equal(event.data.call_id, body.call_id);
      const headers = event.data.sip_headers;
      assert.deepEqual(headers.map((h) => h.name), ['From', 'To', 'Call-ID', 'X-Customer']);
      assert.match(headers[0].value, /^<sip:\+14155550100@carrier\.example>;tag=/);
      assert.equal(headers[1].value, '<sip:proj_x@swedencentral.sip.ai.azure.com>');
      assert.ok(headers[2].value.length > 8);
      assert.equal((await listed(body.call_id))?.state, 'ringing');
    } finally {
      await dash.webhooks.delete(ep.id);
      await receiver.close();
    }
  });

  it('accept (with the realtime deployment), then hang up; a call that ended takes no more requests', async () => {
    const { body } = await ring();
    await client.realtime.calls.accept(body.call_id, { type: 'realtime', model: 'gpt-realtime', instructions: 'You answer the phone.' });
    const accepted = await listed(body.call_id);
    assert.equal(accepted?.state, 'accepted');
    assert.equal(accepted?.session?.model, 'gpt-realtime');
    await assert.rejects(client.realtime.calls.accept(body.call_id, { type: 'realtime', model: 'gpt-realtime' }), (e: unknown) => e instanceof BadRequestError && e.code === 'invalid_call_state');
    await client.realtime.calls.hangup(body.call_id);
    assert.equal((await listed(body.call_id))?.state, 'ended');
    await assert.rejects(client.realtime.calls.hangup(body.call_id), (e: unknown) => e instanceof NotFoundError && e.code === 'call_id_not_found' && /no longer active/.test(e.message));
    await assert.rejects(client.realtime.calls.accept('rtc_unknown', { type: 'realtime' }), (e: unknown) => e instanceof NotFoundError && e.code === 'call_id_not_found');
  });

  it('reject (603 by default, or a given SIP status) and refer (to a tel: or sip: URI) move the state; bad bodies get 400', async () => {
    const a = (await ring()).body.call_id;
    await client.realtime.calls.reject(a);
    assert.deepEqual([(await listed(a))?.state, (await listed(a))?.status_code], ['rejected', 603]);
    const b = (await ring()).body.call_id;
    await assert.rejects(client.realtime.calls.reject(b, { status_code: 200 }), (e: unknown) => e instanceof BadRequestError && e.param === 'status_code');
    await client.realtime.calls.reject(b, { status_code: 486 });
    assert.equal((await listed(b))?.status_code, 486);
    const c = (await ring()).body.call_id;
    await assert.rejects(client.realtime.calls.refer(c, { target_uri: 'https://example.test' }), (e: unknown) => e instanceof BadRequestError && e.param === 'target_uri');
    await client.realtime.calls.refer(c, { target_uri: 'tel:+14155550123' });
    assert.deepEqual([(await listed(c))?.state, (await listed(c))?.target_uri], ['referred', 'tel:+14155550123']);
    const d = (await ring()).body.call_id;
    await assert.rejects(client.realtime.calls.accept(d, { type: 'realtime', model: 'gpt-4o' }), (e: unknown) => e instanceof BadRequestError && e.param === 'model');
    await assert.rejects(client.realtime.calls.accept(d, { type: 'transcription' } as unknown as { type: 'realtime' }), (e: unknown) => e instanceof BadRequestError && e.param === 'type');
    await assert.rejects(client.realtime.calls.accept(d, { type: 'realtime', model: 'missing' }), (e: unknown) => e instanceof NotFoundError && e.code === 'DeploymentNotFound');
    assert.equal((await listed(d))?.state, 'ringing', 'a refused accept leaves the call ringing');
    assert.equal((await ring({ from: 42 })).status, 400);
  });

  it('a call nobody answers ends by itself after the ring time', async () => {
    const { body } = await ring();
    const ended = await eventually(async () => {
      const c = await listed(body.call_id);
      return c?.state === 'ended' ? c : undefined;
    }, 3000);
    assert.equal(ended.end_reason, 'no_answer');
    await assert.rejects(client.realtime.calls.accept(body.call_id, { type: 'realtime' }), NotFoundError);
  });
});
