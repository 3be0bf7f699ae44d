/** The files client against the emulator: an upload streamed from disk with progress, pages, content to a file, delete, refusals. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import type { Emulator } from '../../src/emulator/server';
import { scripted, status, type Step } from '../support/scriptedServer';
import { closeAll, emulatorClient } from '../support/emulatorClient';

describe('jobs client: files', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let dir: string;

  before(async () => {
    const files = { maxBytes: 8 * 1024 * 1024, maxBatchBytes: 4 * 1024 * 1024 };
    ({ emu, client } = await emulatorClient({ config: { files } }, { retry: { baseDelayMs: 5, maxDelayMs: 10 } }));
    dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
  });
  after(async () => {
    await closeAll(client, emu);
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads a 3 MB file from disk with growing progress, and its content comes back byte for byte into a file', async () => {
    const line = `${JSON.stringify({ custom_id: 'x', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: 'é'.repeat(200) }] } })}\n`;
    const text = line.repeat(Math.ceil((3 * 1024 * 1024) / Buffer.byteLength(line)));
    const path = join(dir, 'input "one".jsonl');
    await writeFile(path, text);
    const seen: number[] = [];
    const f = await client.jobs.files.upload(path, { purpose: 'fine-tune', onProgress: (sent, total) => (assert.equal(total, Buffer.byteLength(text)), seen.push(sent)) });
    assert.equal(f.bytes, Buffer.byteLength(text));
    assert.equal(f.purpose, 'fine-tune');
    assert.equal(f.filename, 'input _one_.jsonl', 'quotes cannot break the multipart header');
    assert.ok(seen.length > 2, 'progress is reported as the file is read');
    assert.deepEqual([...seen].sort((a, b) => a - b), seen);
    assert.equal(seen.at(-1), Buffer.byteLength(text));
    assert.deepEqual(await client.jobs.files.retrieve(f.id), f);
    const dest = join(dir, 'back.jsonl');
    let received = 0;
    let announced: number | undefined;
    assert.equal(await client.jobs.files.download(f.id, dest, { onProgress: (n, total) => ((received = n), (announced = total)) }), Buffer.byteLength(text));
    assert.equal(announced, Buffer.byteLength(text), 'the size the service announced');
    assert.equal(received, Buffer.byteLength(text));
    assert.equal(await readFile(dest, 'utf8'), text);
    assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('.part')), [], 'no temporary file left behind');
    if (process.platform !== 'win32') assert.equal((await stat(dest)).mode & 0o777, 0o600, 'readable by the user only');
  });

  it('sends an expiry the SDK way, lists newest first a page at a time filtered by purpose, and deletes', async () => {
    const path = join(dir, 'small.jsonl');
    await writeFile(path, '{"a":1}\n');
    const made = [];
    for (const purpose of ['batch', 'batch', 'batch'] as const) made.push(await client.jobs.files.upload(path, { purpose, expiresAfterSeconds: 1_209_600 }));
    assert.equal(made[0]!.expires_at, made[0]!.created_at + 1_209_600);
    const first = await client.jobs.files.listPage({ purpose: 'batch', limit: 2 });
    assert.deepEqual(first.data.map((f) => f.id), [made[2]!.id, made[1]!.id]);
    assert.equal(first.hasMore, true);
    const second = await client.jobs.files.listPage({ purpose: 'batch', limit: 2, after: first.next });
    assert.deepEqual(second.data.map((f) => f.id), [made[0]!.id]);
    assert.equal(second.hasMore, false);
    assert.equal(second.next, undefined);
    await client.jobs.files.delete(made[0]!.id);
    await assert.rejects(client.jobs.files.retrieve(made[0]!.id), (e: ServiceError) => e.status === 404 && /was not found/.test(e.message));
  });

  it('lists only the files of the purpose asked for', async () => {
    const path = join(dir, 'purposes.jsonl');
    await writeFile(path, '{"a":1}\n');
    const tuning = await client.jobs.files.upload(path, { purpose: 'fine-tune' });
    const batch = await client.jobs.files.upload(path, { purpose: 'batch' });
    const listed = (await client.jobs.files.listPage({ purpose: 'fine-tune', limit: 100 })).data;
    assert.ok(listed.some((f) => f.id === tuning.id));
    assert.deepEqual(listed.filter((f) => f.purpose !== 'fine-tune'), []);
    assert.ok(!listed.some((f) => f.id === batch.id));
  });

  it('a folder chosen for upload, or a download into a folder that does not exist, fails saying so (not as a network failure)', async () => {
    const folder = join(dir, 'a-folder.jsonl');
    await mkdir(folder);
    const before = (await client.jobs.files.listPage({ limit: 100 })).data.length;
    const unreadable = (e: Error) => e.message === 'Could not read "a-folder.jsonl" (EISDIR): choose a file this workbench can read.' && (e.cause as NodeJS.ErrnoException).code === 'EISDIR';
    await assert.rejects(client.jobs.files.upload(folder, { purpose: 'batch' }), unreadable, 'the log keeps the system error as the cause');
    assert.equal((await client.jobs.files.listPage({ limit: 100 })).data.length, before, 'nothing uploaded');
    const path = join(dir, 'to-fetch.jsonl');
    await writeFile(path, '{"a":1}\n');
    const f = await client.jobs.files.upload(path, { purpose: 'batch' });
    const dest = join(dir, 'missing-folder', 'out.jsonl');
    const unwritable = (e: Error) =>
      e.message === `Could not save the file to "${dest}" (ENOENT): check that its folder exists and can be written.` && (e.cause as NodeJS.ErrnoException).code === 'ENOENT';
    await assert.rejects(client.jobs.files.download(f.id, dest), unwritable);
  });

  it("reports the service's refusal of a batch file over its limit, and leaves no file behind", async () => {
    const path = join(dir, 'big.jsonl');
    await writeFile(path, Buffer.alloc(5 * 1024 * 1024, 97));
    const before = (await client.jobs.files.listPage({ purpose: 'batch' })).data.length;
    await assert.rejects(client.jobs.files.upload(path, { purpose: 'batch' }), (e: ServiceError) => e.status === 413 && /at most 4 MB/.test(e.message) && !/all the same/.test(e.message));
    assert.equal((await client.jobs.files.listPage({ purpose: 'batch' })).data.length, before);
    await assert.rejects(client.jobs.files.upload(join(dir, 'missing.jsonl'), { purpose: 'batch' }), /ENOENT/);
  });
});

describe('jobs client: files, failures of the wire', () => {
  const key = { kind: 'apiKey' as const, apiKey: 'k' };
  async function withServer(steps: Step[], run: (c: AzureOpenAIClient) => Promise<void>) {
    const s = await scripted(steps);
    const c = new AzureOpenAIClient({ endpoint: s.url, auth: key, retry: { baseDelayMs: 5, maxDelayMs: 10 } });
    try {
      await run(c);
      return s;
    } finally {
      await c.close();
      await s.close();
    }
  }

  it('never sends an upload twice after a 500, and says the file may exist all the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
    await writeFile(join(dir, 'a.jsonl'), '{}\n');
    const s = await withServer([status(500), status(500)], async (c) => {
      await assert.rejects(c.jobs.files.upload(join(dir, 'a.jsonl'), { purpose: 'batch' }), (e: ServiceError) => e.status === 500 && /may have been uploaded all the same/.test(e.message));
    });
    assert.equal(s.hits(), 1);
    assert.match(s.requests[0]!.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    assert.match(s.requests[0]!.body, /name="purpose"\r\n\r\nbatch\r\n/);
    await rm(dir, { recursive: true, force: true });
  });

  it('a download cut off midway leaves neither the file nor a part of it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
    const cut: Step = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' });
      res.write(Buffer.alloc(1000, 97), () => res.destroy());
    };
    await withServer([cut], async (c) => {
      await assert.rejects(c.jobs.files.download('file-1', join(dir, 'out.jsonl')), (e: ServiceError) => e instanceof ServiceError && e.kind !== 'aborted');
    });
    assert.deepEqual(await readdir(dir), []);
    await rm(dir, { recursive: true, force: true });
  });

  it('a download with no announced size still arrives whole, its progress without a total', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
    const chunked: Step = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('{"a":1}\n');
      res.end('{"b":2}\n');
    };
    const totals: Array<number | undefined> = [];
    await withServer([chunked], async (c) => {
      assert.equal(await c.jobs.files.download('file-1', join(dir, 'out.jsonl'), { onProgress: (_n, total) => totals.push(total) }), 16);
    });
    assert.equal(await readFile(join(dir, 'out.jsonl'), 'utf8'), '{"a":1}\n{"b":2}\n');
    assert.ok(totals.length > 0 && totals.every((t) => t === undefined));
    await rm(dir, { recursive: true, force: true });
  });

  it('deletes again after a 503 (a delete is safe to repeat); a download asks for any type of content', async () => {
    const deleted: Step = (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"file-1","object":"file","deleted":true}');
    const bytes: Step = (_q, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('{"a":1}\n');
    const dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
    const s = await withServer([status(503), deleted, bytes], async (c) => {
      await c.jobs.files.delete('file-1');
      await c.jobs.files.download('file-1', join(dir, 'out.jsonl'));
    });
    assert.deepEqual(s.requests.map((r) => `${r.method} ${r.url}`), ['DELETE /openai/v1/files/file-1', 'DELETE /openai/v1/files/file-1', 'GET /openai/v1/files/file-1/content']);
    assert.equal(s.requests[2]!.headers.accept, '*/*');
    await rm(dir, { recursive: true, force: true });
  });

  it('a download cancelled midway stops, and leaves neither the file nor a part of it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
    const slow: Step = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' });
      res.write(Buffer.alloc(1000, 97));
    };
    const abort = new AbortController();
    await withServer([slow], async (c) => {
      await assert.rejects(
        c.jobs.files.download('file-1', join(dir, 'out.jsonl'), { signal: abort.signal, onProgress: () => abort.abort() }),
        (e: ServiceError) => e instanceof ServiceError && e.kind === 'aborted',
      );
    });
    assert.deepEqual(await readdir(dir), []);
    await rm(dir, { recursive: true, force: true });
  });

  it('call control asks for JSON and sends the session to accept with', async () => {
    const s = await withServer([], async (c) => {
      await c.jobs.calls.accept('call-1', { model: 'rt', instructions: 'Hi.' });
    });
    assert.equal(s.requests[0]!.url, '/openai/v1/realtime/calls/call-1/accept');
    assert.equal(s.requests[0]!.headers.accept, 'application/json');
    assert.deepEqual(JSON.parse(s.requests[0]!.body), { type: 'realtime', model: 'rt', instructions: 'Hi.' });
  });

  it('a file name with quotes, line breaks or backslashes cannot break the form', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-files-'));
    await writeFile(join(dir, 'a.jsonl'), '{}\n');
    const s = await withServer([], async (c) => {
      await c.jobs.files.upload(join(dir, 'a.jsonl'), { purpose: 'batch', filename: 'x"\r\n\\y.jsonl' }).catch(() => undefined);
    });
    assert.match(s.requests[0]!.body, /filename="x____y\.jsonl"\r\n/);
    await rm(dir, { recursive: true, force: true });
  });

  it('a batch or job create is not sent twice after a 500 and says it may exist; cancel, pause and resume are sent again after a 503', async () => {
    const job = (_q: unknown, res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ftjob-1","status":"cancelled"}');
    const batch = (_q: unknown, res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"batch_1","status":"cancelling"}');
    let s = await withServer([status(500)], async (c) => {
      await assert.rejects(
        c.jobs.batches.create({ input_file_id: 'file-1', endpoint: '/v1/chat/completions' }),
        (e: ServiceError) => e.status === 500 && /batch may have been created all the same/.test(e.message),
      );
    });
    assert.equal(s.hits(), 1);
    assert.deepEqual(JSON.parse(s.requests[0]!.body), { completion_window: '24h', input_file_id: 'file-1', endpoint: '/v1/chat/completions' });
    s = await withServer([status(500)], async (c) => {
      await assert.rejects(c.jobs.fineTuning.create({ model: 'm', training_file: 'file-1' }), (e: ServiceError) => e.status === 500 && /job may have been created all the same/.test(e.message));
    });
    assert.equal(s.hits(), 1);
    s = await withServer([status(400), status(400)], async (c) => {
      await assert.rejects(c.jobs.batches.create({ input_file_id: 'f', endpoint: '/v1/responses' }), (e: ServiceError) => e.status === 400 && !/all the same/.test(e.message));
      await assert.rejects(c.jobs.fineTuning.create({ model: 'm', training_file: 'f' }), (e: ServiceError) => e.status === 400 && !/all the same/.test(e.message));
    });
    s = await withServer([status(503), batch, status(503), job, status(503), job, status(503), job], async (c) => {
      assert.equal((await c.jobs.batches.cancel('batch_1')).status, 'cancelling');
      assert.equal((await c.jobs.fineTuning.cancel('ftjob-1')).id, 'ftjob-1');
      await c.jobs.fineTuning.pause('ftjob-1');
      await c.jobs.fineTuning.resume('ftjob-1');
    });
    assert.deepEqual(s.requests.map((r) => r.url), [
      '/openai/v1/batches/batch_1/cancel', '/openai/v1/batches/batch_1/cancel',
      '/openai/v1/fine_tuning/jobs/ftjob-1/cancel', '/openai/v1/fine_tuning/jobs/ftjob-1/cancel',
      '/openai/v1/fine_tuning/jobs/ftjob-1/pause', '/openai/v1/fine_tuning/jobs/ftjob-1/pause',
      '/openai/v1/fine_tuning/jobs/ftjob-1/resume', '/openai/v1/fine_tuning/jobs/ftjob-1/resume',
    ]);
  });

  it('events and checkpoints that are not objects with ids are reported as a broken answer', async () => {
    const list = (data: unknown): Step => (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, has_more: false }));
    await withServer([list([{ message: 'no id' }]), list([null]), list([{ id: 'ev-1', message: 'ok' }])], async (c) => {
      await assert.rejects(c.jobs.fineTuning.events('ftjob-1'), (e: ServiceError) => e.kind === 'invalid-response' && /a fine-tuning event/.test(e.message));
      await assert.rejects(c.jobs.fineTuning.checkpoints('ftjob-1'), (e: ServiceError) => e.kind === 'invalid-response' && /a fine-tuning checkpoint/.test(e.message));
      assert.deepEqual((await c.jobs.fineTuning.events('ftjob-1', { limit: 5, after: 'ev-0' })).data, [{ id: 'ev-1', message: 'ok' }]);
    });
  });

  it('a list in the shape of Azure samples (value, ISO times) reads like the documented one', async () => {
    const page: Step = (_q, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ value: [{ id: 'file-a', object: 'file', bytes: null, created_at: '2025-01-02T03:04:05Z', filename: 'a', purpose: 'batch' }] }),
      );
    await withServer([page], async (c) => {
      const p = await c.jobs.files.listPage();
      assert.deepEqual(p.data.map((f) => [f.id, f.created_at, f.bytes]), [['file-a', Date.UTC(2025, 0, 2, 3, 4, 5) / 1000, null]]);
      assert.equal(p.hasMore, false);
    });
  });
});
