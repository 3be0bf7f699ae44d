/** Files on the emulator through the official `openai` client: upload, list, retrieve, content, delete, limits. */
import assert from 'node:assert/strict';
import OpenAI, { APIError, BadRequestError, NotFoundError, toFile } from 'openai';
import { startEmulator, type Emulator } from '../../src/emulator/server';

describe('emulator: files', () => {
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    emu = await startEmulator({ config: { files: { maxBytes: 4096, maxBatchBytes: 1024 } } });
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(() => emu.close());

  it('uploads a batch file as multipart, retrieves it and gives its bytes back unchanged', async () => {
    const text = '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[]}}\n';
    const created = await client.files.create({ file: await toFile(Buffer.from(text), 'input.jsonl'), purpose: 'batch' });
    assert.match(created.id, /^file-[0-9a-f]{32}$/);
    assert.equal(created.object, 'file');
    assert.equal(created.bytes, Buffer.byteLength(text));
    assert.equal(created.filename, 'input.jsonl');
    assert.equal(created.purpose, 'batch');
    assert.equal(created.status, 'processed');
    assert.deepEqual(await client.files.retrieve(created.id), created);
    const content = await client.files.content(created.id);
    assert.equal(content.headers.get('content-type'), 'application/octet-stream');
    assert.equal(await content.text(), text);
  });

  it('takes every purpose the service accepts on upload, refuses others and a missing file', async () => {
    for (const purpose of ['assistants', 'batch', 'fine-tune', 'evals'] as const) {
      const f = await client.files.create({ file: await toFile(Buffer.from('{}\n'), `${purpose}.jsonl`), purpose });
      assert.equal(f.purpose, purpose);
    }
    await assert.rejects(
      client.files.create({ file: await toFile(Buffer.from('{}'), 'x.jsonl'), purpose: 'batch_output' as 'batch' }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'purpose' && /Supported values are: 'assistants', 'batch', 'fine-tune', 'evals'/.test(e.message),
    );
    const form = new FormData();
    form.set('purpose', 'batch');
    const res = await fetch(`${emu.url}/openai/v1/files`, { method: 'POST', headers: { 'api-key': emu.apiKey }, body: form });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { param: string } }).error.param, 'file');
  });

  it('keeps an expiry sent the SDK way (expires_after[seconds]) or the Azure sample way (expires_after.seconds), within the service range', async () => {
    const sdk = await client.files.create({ file: await toFile(Buffer.from('{}'), 'a.jsonl'), purpose: 'batch', expires_after: { anchor: 'created_at', seconds: 1_209_600 } });
    assert.equal(sdk.expires_at, sdk.created_at + 1_209_600);
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('expires_after.seconds', '2592000');
    form.set('file', new Blob(['{}']), 'b.jsonl');
    const res = await fetch(`${emu.url}/openai/v1/files`, { method: 'POST', headers: { 'api-key': emu.apiKey }, body: form });
    const azure = (await res.json()) as { expires_at: number; created_at: number };
    assert.equal(azure.expires_at, azure.created_at + 2_592_000);
    await assert.rejects(
      client.files.create({ file: await toFile(Buffer.from('{}'), 'c.jsonl'), purpose: 'batch', expires_after: { anchor: 'created_at', seconds: 3600 } }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'expires_after.seconds' && /from 1209600 to 2592000/.test(e.message),
    );
  });

  it('refuses a file over the per-file limit and a batch file over the batch limit, with 413 file_too_large', async () => {
    await assert.rejects(
      client.files.create({ file: await toFile(Buffer.alloc(2048, 97), 'big.jsonl'), purpose: 'batch' }),
      (e: unknown) => e instanceof APIError && e.status === 413 && e.code === 'file_too_large' && /batch input file may be at most/.test(e.message),
    );
    const fine = await client.files.create({ file: await toFile(Buffer.alloc(2048, 97), 'big.jsonl'), purpose: 'fine-tune' });
    assert.equal(fine.bytes, 2048, 'the batch limit is for batch files only');
    await assert.rejects(
      client.files.create({ file: await toFile(Buffer.alloc(200_000, 97), 'huge.jsonl'), purpose: 'fine-tune' }),
      (e: unknown) => e instanceof APIError && e.status === 413 && e.code === 'file_too_large',
    );
  });

  it('lists newest first, a page at a time, filtered by purpose; deletes; an unknown id is a 404', async () => {
    const own = await startEmulator();
    try {
      const c = new OpenAI({ baseURL: `${own.url}/openai/v1/`, apiKey: own.apiKey, maxRetries: 0 });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await c.files.create({ file: await toFile(Buffer.from(`{"n":${i}}`), `f${i}.jsonl`), purpose: i % 2 ? 'fine-tune' : 'batch' })).id);
      const page = await c.files.list({ limit: 2 });
      assert.deepEqual(page.data.map((f) => f.id), [ids[4], ids[3]]);
      assert.equal(page.has_more, true);
      const all: string[] = [];
      for await (const f of c.files.list({ limit: 2 })) all.push(f.id);
      assert.deepEqual(all, [...ids].reverse(), 'every file once, across pages');
      const batchOnly = await c.files.list({ purpose: 'batch' });
      assert.deepEqual(batchOnly.data.map((f) => f.id), [ids[4], ids[2], ids[0]]);
      const deleted = await c.files.delete(ids[0]);
      assert.deepEqual(deleted, { id: ids[0], object: 'file', deleted: true });
      await assert.rejects(c.files.retrieve(ids[0]), (e: unknown) => e instanceof NotFoundError && /File with id 'file-[0-9a-f]+' was not found/.test(e.message));
      await assert.rejects(c.files.content('file-missing'), NotFoundError);
    } finally {
      await own.close();
    }
  });
});
