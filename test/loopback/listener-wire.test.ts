/**
 * The listener on the wire, in raw bytes: what it reads (pipelined, split, chunked, 100-continue),
 * what it refuses and says why, and a differential set of request-smuggling and bad-framing shapes,
 * each carrying a valid signature, that must never reach a verdict.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { WebhookListener, type DeliveryRecord, type ListenerOptions } from '../../src/webhooks/receive/listener';
import type { ChildListener } from '../../src/webhooks/receive/childListener';
import { listenerInChild } from '../support/childListener';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { exchange, statuses } from '../support/rawHttp';
import { eventually } from '../support/receiver';

const secret = generateSecret();
const body = (id: string) => JSON.stringify({ object: 'event', id: `evt_${id}`, type: 'response.completed', created_at: 1, data: { id: 'resp_1' } });
/** The signed headers of delivery `id` as header lines. */
const signed = (id: string, b = body(id)) => Object.entries(signedHeaders(secret, id, b)).map(([k, v]) => `${k}: ${v}\r\n`).join('');
/** A signed delivery framed by Content-Length, with `extra` header lines. */
const post = (id: string, extra = '') => `POST /hook HTTP/1.1\r\nhost: x\r\n${signed(id)}${extra}content-length: ${body(id).length}\r\n\r\n${body(id)}`;
/** The head of a signed chunked delivery; `chunks` follows it. */
const chunked = (id: string, extra = '') => `POST /hook HTTP/1.1\r\nhost: x\r\n${signed(id)}${extra}transfer-encoding: chunked\r\n\r\n`;
const answerBody = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n') + 4);

describe('the listener on the wire', () => {
  let listener: ChildListener | WebhookListener;
  let records: DeliveryRecord[];
  let failSecrets = false;
  const sockets: Socket[] = [];

  const options = (): ListenerOptions => ({
    secrets: () => {
      if (failSecrets) throw new Error('boom');
      return [{ endpointId: 'we_1', secret }];
    },
    maxBodyBytes: 1024,
    headersTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    keepAliveTimeoutMs: 400,
    onDelivery: (r) => records.push(r),
  });

  beforeEach(async () => {
    records = [];
    failSecrets = false;
    listener = listenerInChild(options());
    await listener.start();
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await listener.stop();
  });

  const verified = () => records.filter((r) => r.verdict === 'verified').map((r) => r.webhookId);

  it('answers pipelined deliveries in order on one connection, Content-Length and chunked alike, and verifies each', async () => {
    const b = body('msg_2');
    const chunks = `3;ext=1\r\n${b.slice(0, 3)}\r\n${(b.length - 3).toString(16)}\r\n${b.slice(3)}\r\n0\r\nx-trailer: t\r\n\r\n`;
    const wire = post('msg_1', 'constructor: c\r\n') + chunked('msg_2') + chunks + post('msg_3', 'connection: close\r\n');
    assert.deepEqual(statuses(await exchange(listener.port, wire)), [200, 200, 200]);
    await eventually(() => records.length === 3 || undefined);
    assert.deepEqual(verified(), ['msg_1', 'msg_2', 'msg_3']);
    assert.equal(Object.hasOwn(records[0].headers, 'constructor') && records[0].headers.constructor, 'c', 'a header named like an Object property is kept');
  });

  it('reads a delivery sent a few bytes at a time, in 1-byte chunks, after blank lines, and answers Expect: 100-continue', async () => {
    const b = body('msg_split');
    const wire = `${chunked('msg_split', 'connection: close\r\n')}${[...b].map((c) => `1\r\n${c}\r\n`).join('')}0\r\n\r\n`;
    const raw = await exchange(listener.port, ...wire.match(/[\s\S]{1,400}/g)!);
    assert.deepEqual(statuses(raw), [200]);
    const head = `POST /hook HTTP/1.1\r\nhost: x\r\n${signed('msg_continue')}content-length: ${body('msg_continue').length}\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n`;
    assert.deepEqual(statuses(await exchange(listener.port, head, body('msg_continue'))), [100, 200]);
    assert.deepEqual(statuses(await exchange(listener.port, `\r\n${post('msg_blank', 'connection: close\r\n')}`)), [200]);
    await eventually(() => records.length === 3 || undefined);
    assert.deepEqual(verified(), ['msg_split', 'msg_continue', 'msg_blank']);
  });

  it('says why it refused, and closes: size, head size, version, expectation, framing', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['POST /hook HTTP/1.1\r\ncontent-length: 1025\r\n\r\n'], 413, /^Payload too large$/],
      [[`${chunked('msg_big')}401\r\n${'x'.repeat(1025)}\r\n0\r\n\r\n`], 413, /^Payload too large$/],
      [[`${chunked('msg_big2')}200\r\n${'x'.repeat(512)}\r\n201\r\n${'x'.repeat(513)}\r\n0\r\n\r\n`], 413, /^Payload too large$/],
      [[`POST /hook HTTP/1.1\r\nx-big: ${'a'.repeat(17 * 1024)}\r\n\r\n`], 431, /^Request header fields too large$/],
      [['POST /hook HTTP/1.2\r\ncontent-length: 0\r\n\r\n'], 505, /^HTTP version not supported$/],
      [['POST /hook HTTP/1.1\r\nexpect: magic\r\ncontent-length: 0\r\n\r\n'], 417, /^Expectation failed$/],
      [['HELLO THERE\r\n\r\n'], 400, /^Bad request: /],
      [['POST /hook HTTP/1.1\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n'], 400, /^Bad request: .*Content-Length/],
    ];
    for (const [parts, status, text] of cases) {
      const raw = await exchange(listener.port, ...parts);
      assert.deepEqual(statuses(raw), [status], JSON.stringify(parts[0].slice(0, 60)));
      assert.match(raw, /\r\nconnection: close\r\n/i);
      assert.match(answerBody(raw), text);
    }
    assert.equal(records.length, 0, 'none of them reached a verdict');
  });

  it('closes after the answer for Connection: close and HTTP/1.0; closes an idle keep-alive connection without an answer', async () => {
    for (const first of [post('msg_close', 'connection: close\r\n'), post('msg_10').replace('HTTP/1.1', 'HTTP/1.0')]) {
      assert.deepEqual(statuses(await exchange(listener.port, first, post('msg_never'))), [200], 'the second request on a closing connection is not read');
    }
    const s = connect(listener.port, '127.0.0.1');
    sockets.push(s);
    let out = '';
    s.on('data', (d: Buffer) => (out += d.toString('latin1')));
    const closed = new Promise<number>((r) => s.on('close', () => r(Date.now())));
    s.write(post('msg_keep_1'));
    await eventually(() => statuses(out).length === 1 || undefined);
    s.write(post('msg_keep_2'));
    await eventually(() => statuses(out).length === 2 || undefined);
    const idleFrom = Date.now();
    const at = await closed;
    assert.ok(at - idleFrom >= 250 && at - idleFrom < 3_000, `closed after ${at - idleFrom} ms idle (keep-alive timeout 400 ms)`);
    assert.deepEqual(statuses(out), [200, 200], 'no answer to a connection that sent nothing more');
    assert.equal(verified().includes('msg_never'), false);
  });

  it('answers 500 "Internal server error" when verification throws, and keeps serving; survives a reset mid-request', async () => {
    // In this process: a secrets function that throws is the in-process listener's case (a child is given its secrets as data).
    await listener.stop();
    listener = new WebhookListener(options());
    await listener.start();
    failSecrets = true;
    const raw = await exchange(listener.port, post('msg_boom'), post('msg_boom_2', 'connection: close\r\n'));
    assert.deepEqual(statuses(raw), [500, 500]);
    assert.match(raw, /Internal server error$/);
    failSecrets = false;
    const s = connect(listener.port, '127.0.0.1');
    s.on('error', () => undefined);
    await new Promise((r) => s.on('connect', r));
    s.write(post('msg_reset').slice(0, -10));
    await new Promise((r) => setTimeout(r, 30));
    s.resetAndDestroy();
    assert.deepEqual(statuses(await exchange(listener.port, post('msg_after_reset', 'connection: close\r\n'))), [200]);
  });

  it('a differential set of smuggling and bad-framing shapes, each signed: each is answered 4xx or dropped, none is recorded', async function () {
    this.timeout(60_000);
    const n = (id: string) => body(id).length.toString(16);
    const te = (id: string, value: string) => `POST /hook HTTP/1.1\r\nhost: x\r\n${signed(id)}transfer-encoding: ${value}\r\n\r\n${n(id)}\r\n${body(id)}\r\n0\r\n\r\n`;
    /** A chunked delivery whose only chunk has this size line. */
    const sized = (id: string, line: string) => `${chunked(id)}${line}\r\n${body(id)}\r\n0\r\n\r\n`;
    const trailer = (id: string, lines: string) => `${chunked(id)}${n(id)}\r\n${body(id)}\r\n0\r\n${lines}\r\n\r\n`;
    const shapes: Record<string, (id: string) => string> = {
      'Content-Length then Transfer-Encoding': (id) => `${chunked(id, `content-length: ${body(id).length}\r\n`)}${n(id)}\r\n${body(id)}\r\n0\r\n\r\n`,
      'Transfer-Encoding then Content-Length': (id) => te(id, `chunked\r\ncontent-length: ${body(id).length}`),
      'two different Content-Lengths': (id) => post(id, `content-length: ${body(id).length + 1}\r\n`),
      'two equal Content-Lengths': (id) => post(id, `content-length: ${body(id).length}\r\n`),
      'a Content-Length list': (id) => post(id).replace(/content-length: (\d+)/, 'content-length: $1, $1'),
      'a signed Content-Length': (id) => post(id).replace(/content-length: /, 'content-length: +'),
      'chunked, gzip': (id) => te(id, 'chunked, gzip'),
      'gzip': (id) => te(id, 'gzip'),
      'xchunked': (id) => te(id, 'xchunked'),
      'chunked twice': (id) => te(id, 'chunked, chunked'),
      'chunked then gzip in two headers': (id) => te(id, 'chunked\r\ntransfer-encoding: gzip'),
      'identity with a Content-Length': (id) => te(id, `identity\r\ncontent-length: ${body(id).length}`),
      'a space before the colon': (id) => te(id, 'chunked').replace('transfer-encoding:', 'transfer-encoding :'),
      'a vertical tab before chunked': (id) => te(id, '\vchunked'),
      'obs-fold of a header': (id) => post(id, 'x-a: 1\r\n folded\r\n'),
      'obs-fold of Transfer-Encoding': (id) => te(id, '\r\n chunked'),
      'chunk size not hex': (id) => sized(id, 'zz'),
      'a space before the chunk size': (id) => sized(id, ` ${n(id)}`),
      'a space after the chunk size': (id) => sized(id, `${n(id)} `),
      'chunk size 0x…': (id) => sized(id, `0x${n(id)}`),
      'a negative chunk size': (id) => sized(id, `-${n(id)}`),
      'a chunk size past 64 bits': (id) => sized(id, `1000000000000000${n(id)}`),
      'chunk data longer than its size': (id) => sized(id, (body(id).length - 1).toString(16)),
      'chunk data not ended by CRLF': (id) => `${chunked(id)}${n(id)}\r\n${body(id)}XX0\r\n\r\n`,
      'a bare CR in a chunk extension': (id) => sized(id, `${n(id)};a\rb`),
      'a bare LF in a chunk extension': (id) => sized(id, `${n(id)};a\nb`),
      'a NUL in a chunk extension': (id) => sized(id, `${n(id)};a\0b`),
      'a chunk size line ended by a bare LF': (id) => `${chunked(id)}${n(id)}\n${body(id)}\r\n0\r\n\r\n`,
      'a bare LF in a header value': (id) => post(id, 'x-a: 1\ncontent-length: 0\r\n'),
      'a bare CR in a header value': (id) => post(id, 'x-a: 1\rx\r\n'),
      'a NUL in a header value': (id) => post(id, 'x-a: 1\0x\r\n'),
      'U+0001 in a header value': (id) => post(id, 'x-a: 1\x01x\r\n'),
      'DEL in a header value': (id) => post(id, 'x-a: 1\x7fx\r\n'),
      'ESC in a header value': (id) => post(id, 'x-a: 1\x1bx\r\n'),
      'a head of bare LFs': (id) => post(id).replace(/\r\n/g, '\n'),
      'a bare CR in the target': (id) => post(id).replace('/hook', '/ho\rok'),
      'U+0001 in the target': (id) => post(id).replace('/hook', '/ho\x01ok'),
      'a NUL in the target': (id) => post(id).replace('/hook', '/ho\0ok'),
      'DEL in the target': (id) => post(id).replace('/hook', '/ho\x7fok'),
      'a tab in the target': (id) => post(id).replace('/hook', '/ho\tok'),
      'a space in a header name': (id) => post(id, 'x a: 1\r\n'),
      'a header line without a colon': (id) => post(id, 'xa\r\n'),
      'a trailer line without a colon': (id) => trailer(id, 'not a trailer'),
      'a bare LF in a trailer': (id) => trailer(id, 'x-t: 1\nx-u: 2'),
      'U+0001 in a trailer': (id) => trailer(id, 'x-t: 1\x01'),
      'a NUL in a trailer': (id) => trailer(id, 'x-t: \0'),
      'obs-fold of a trailer': (id) => trailer(id, 'x-t: 1\r\n folded'),
    };
    const ids: string[] = [];
    const failures: string[] = [];
    let i = 0;
    for (const [name, shape] of Object.entries(shapes)) {
      const id = `msg_shape_${i++}`;
      ids.push(id);
      const raw = await exchange(listener.port, shape(id));
      const got = statuses(raw);
      // One 4xx answer, or none (closed): never a 2xx, never a second request read from the bytes.
      if (!(got.length === 0 || (got.length === 1 && got[0] >= 400 && got[0] < 500))) failures.push(`${name}: ${JSON.stringify(got)}`);
    }
    assert.deepEqual(failures, [], 'shapes answered other than one 4xx');
    // A valid delivery after them all: verified, and after it nothing else is waiting to be recorded.
    assert.deepEqual(statuses(await exchange(listener.port, post('msg_control', 'connection: close\r\n'))), [200]);
    await eventually(() => records.some((r) => r.webhookId === 'msg_control') || undefined);
    assert.deepEqual(records.filter((r) => ids.includes(r.webhookId ?? '')).map((r) => `${r.webhookId}: ${r.verdict}`), [], 'no shape reached a verdict');
    assert.deepEqual(verified(), ['msg_control']);
  });
});
