/** The batch results table: rows read a page at a time through a line index, one line in full, exports, the request a line answers. */
import assert from 'node:assert/strict';
import { mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchResults, findRequest } from '../../src/jobs/batchResults';
import { LineIndex } from '../../src/jobs/lineIndex';
import { toRow } from '../../src/jobs/resultRows';
import { csvField } from '../../src/text/csv';

let dir: string;
before(async () => (dir = await mkdtemp(join(tmpdir(), 'jobs-results-'))));
after(() => rm(dir, { recursive: true, force: true }));

const chat = (id: string, content: string, usage = { prompt_tokens: 3, completion_tokens: 5 }) =>
  JSON.stringify({ id: 'batch_req_1', custom_id: id, response: { status_code: 200, request_id: 'r', body: { choices: [{ message: { role: 'assistant', content } }], usage } }, error: null });
const failed = (id: string) => JSON.stringify({ custom_id: id, response: { status_code: 400, body: { error: { code: 'invalid_value', message: 'bad stream' } } }, error: null });

describe('batch results reader', () => {
  let output: string;
  let errors: string;
  before(async () => {
    output = join(dir, 'output.jsonl');
    errors = join(dir, 'error.jsonl');
    await writeFile(output, Array.from({ length: 5000 }, (_, i) => chat(`req-${i}`, `answer ${i}\nsecond line`)).join('\n') + '\n');
    // No final newline: the export must not glue this file to anything.
    await writeFile(errors, [failed('bad-0'), failed('bad-1'), JSON.stringify({ custom_id: 'bad-2', response: null, error: { code: 'batch_expired', message: 'not done in time' } })].join('\n'));
  });

  it('shows a page of rows as soon as its lines are indexed, then counts every row', async () => {
    const r = BatchResults.open({ output, error: errors });
    const first = await r.page(0, 3);
    assert.deepEqual(
      first.map((x) => [x.index, x.source, x.customId, x.statusCode, x.ok, x.inputTokens, x.outputTokens, x.reply, x.error]),
      [0, 1, 2].map((i) => [i, 'output', `req-${i}`, 200, true, 3, 5, `answer ${i}`, '']),
    );
    assert.equal(await r.total(), 5003);
    assert.equal(r.complete, true);
    assert.equal(r.count, 5003);
  });

  it('a page across the end of the output file goes on with the error file; past the end it is empty', async () => {
    const r = BatchResults.open({ output, error: errors });
    const rows = await r.page(4998, 10);
    assert.deepEqual(
      rows.map((x) => [x.index, x.source, x.customId, x.ok, x.error]),
      [
        [4998, 'output', 'req-4998', true, ''],
        [4999, 'output', 'req-4999', true, ''],
        [5000, 'error', 'bad-0', false, 'invalid_value: bad stream'],
        [5001, 'error', 'bad-1', false, 'invalid_value: bad stream'],
        [5002, 'error', 'bad-2', false, 'batch_expired: not done in time'],
      ],
    );
    assert.deepEqual((await r.page(5001, 1)).map((x) => x.customId), ['bad-1']);
    assert.deepEqual(await r.page(6000, 5), []);
    assert.equal(await r.line(9000), undefined);
    const full = await r.line(4999);
    assert.equal(((full?.response as { body: { choices: Array<{ message: { content: string } }> } }).body.choices[0]!.message.content), 'answer 4999\nsecond line');
    const onlyErrors = BatchResults.open({ error: errors });
    assert.deepEqual((await onlyErrors.page(1, 5)).map((x) => [x.index, x.customId]), [[1, 'bad-1'], [2, 'bad-2']]);
    assert.equal(await BatchResults.open({}).total(), 0);
  });

  it('exports the lines as JSONL (every line once, output then errors) and the table as CSV', async () => {
    const r = BatchResults.open({ output, error: errors });
    const jsonl = join(dir, 'export.jsonl');
    await r.exportJsonl(jsonl);
    const lines = (await readFile(jsonl, 'utf8')).split('\n');
    assert.equal(lines.pop(), '', 'ends with a newline');
    assert.equal(lines.length, 5003);
    assert.deepEqual(lines.map((l) => (JSON.parse(l) as { custom_id: string }).custom_id).slice(4999), ['req-4999', 'bad-0', 'bad-1', 'bad-2']);
    const csv = join(dir, 'export.csv');
    assert.equal(await r.exportCsv(csv, 700), 5003);
    const rows = (await readFile(csv, 'utf8')).trimEnd().split('\n');
    assert.equal(rows[0], 'custom_id,source,status,ok,input_tokens,output_tokens,reply,error');
    assert.equal(rows[1], 'req-0,output,200,true,3,5,answer 0,');
    assert.equal(rows.at(-1), 'bad-2,error,,false,,,,batch_expired: not done in time');
    assert.equal(rows.length, 5004);
  });

  it('a line that is not JSON is a row that says so and opens as its text; an empty error file adds nothing to an export', async () => {
    const out = join(dir, 'odd.jsonl');
    const empty = join(dir, 'empty.jsonl');
    await writeFile(out, `${chat('ok', 'fine')}\n{broken\n`);
    await writeFile(empty, '');
    const r = BatchResults.open({ output: out, error: empty });
    assert.deepEqual(await r.line(1), { unreadable: '{broken' });
    assert.equal(await r.total(), 2);
    assert.equal(r.count, 2);
    const jsonl = join(dir, 'odd-export.jsonl');
    await r.exportJsonl(jsonl);
    assert.equal(await readFile(jsonl, 'utf8'), `${chat('ok', 'fine')}\n{broken\n`);
  });

  it('a missing file fails the page that needs it, with the reason', async () => {
    const r = BatchResults.open({ output: join(dir, 'gone.jsonl') });
    await assert.rejects(r.page(0, 5), /ENOENT/);
    await assert.rejects(LineIndex.open(join(dir, 'gone.jsonl')).ready(1), /ENOENT/);
  });

  it('finds the request a result answers in the input file, by custom_id', async () => {
    const input = join(dir, 'input.jsonl');
    const req = (id: string, n: number) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'm', n } });
    await writeFile(input, [req('a', 1), `{"note":"mentions \\"b\\" only","custom_id":"x"}`, req('b', 2), req('é/1', 3), '{"custom_id":"\\u00e9\\/2","body":4}'].join('\n'));
    assert.deepEqual((await findRequest(input, 'b'))?.body, { model: 'm', n: 2 });
    assert.deepEqual((await findRequest(input, 'é/1'))?.body, { model: 'm', n: 3 });
    assert.equal((await findRequest(input, 'é/2'))?.body, 4, 'an id escaped another way is still found');
    assert.equal(await findRequest(input, 'zzz'), undefined);
  });
});

describe('a result line as a row', () => {
  const row = (line: unknown) => toRow(Buffer.from(typeof line === 'string' ? line : JSON.stringify(line)), 7, 'output');
  const ok = (body: unknown) => ({ custom_id: 'c', response: { status_code: 200, body }, error: null });

  it('reads chat replies, refusals and tool calls, and Responses output, to their first line', () => {
    assert.equal(row(ok({ choices: [{ message: { content: '\n  hello\nworld' } }] })).reply, 'hello');
    assert.equal(row(ok({ choices: [{ message: { content: null, refusal: 'I cannot' } }] })).reply, 'I cannot');
    assert.equal(row(ok({ choices: [{ message: { content: null, tool_calls: [{ function: { name: 'lookup' } }] } }] })).reply, '→ lookup(…)');
    assert.equal(row(ok({ choices: [{ message: { content: '' } }] })).reply, '');
    assert.equal(row(ok({ output_text: 'direct' })).reply, 'direct');
    const responses = { output: [{ type: 'reasoning', content: [] }, { type: 'message', content: [{ type: 'output_text', text: 'from responses' }] }], usage: { input_tokens: 9, output_tokens: 4 } };
    const r = row(ok(responses));
    assert.deepEqual([r.reply, r.inputTokens, r.outputTokens, r.ok, r.index, r.source, r.customId], ['from responses', 9, 4, true, 7, 'output', 'c']);
    assert.equal(row(ok({ output: [{ type: 'function_call', name: 'f' }] })).reply, '→ f(…)');
    assert.equal(row(ok({ output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'no' }] }] })).reply, 'no');
    assert.equal(row(ok({ choices: [{ message: { content: 'x'.repeat(300) } }] })).reply.length, 200);
    assert.equal(row(ok({ choices: [{ message: { content: 'x'.repeat(300) } }] })).reply.at(-1), '…');
  });

  it('says what failed: a status without success, a line error, a line that is not JSON', () => {
    const e = row({ custom_id: 'c', response: { status_code: 429, body: { error: { message: 'slow down' } } } });
    assert.deepEqual([e.ok, e.statusCode, e.error], [false, 429, 'slow down']);
    assert.equal(row({ custom_id: 'c', response: { status_code: 500, body: {} } }).ok, false);
    assert.equal(row({ custom_id: 'c', response: null, error: { code: 'server_error' } }).error, 'server_error');
    const bad = row('{not json');
    assert.deepEqual([bad.ok, bad.customId, bad.error], [false, '', 'This line of the results file is not a JSON object.']);
    assert.equal(row('[1]').ok, false);
  });

  it('writes CSV fields quoted when needed and never as a spreadsheet formula', () => {
    assert.deepEqual(
      ['plain', 'a,b', 'say "hi"', 'two\nlines', '=SUM(A1)', '-1', 12, true, undefined].map(csvField),
      ['plain', '"a,b"', '"say ""hi"""', '"two\nlines"', "'=SUM(A1)", "'-1", '12', 'true', ''],
    );
  });
});

describe('batch results: indexing in the background', () => {
  const openFds = async () => (await readdir('/proc/self/fd').catch(() => undefined))?.length;
  let big: string;
  let small: string;
  before(async () => {
    big = join(dir, 'big-output.jsonl');
    small = join(dir, 'small-errors.jsonl');
    // About 12 MB: indexing takes many reads, so a first page comes long before the end.
    await writeFile(big, `${Array.from({ length: 60_000 }, (_, i) => chat(`r-${i}`, `answer ${i} ${'.'.repeat(100)}`)).join('\n')}\n`);
    await writeFile(small, `${[failed('e-0'), failed('e-1'), failed('e-2'), failed('e-3')].join('\n')}\n`);
  });

  it('shows the first page before the whole file is indexed, and is complete only when both files are', async () => {
    const r = BatchResults.open({ output: big, error: small });
    assert.equal(r.complete, false, 'nothing is indexed yet');
    assert.deepEqual((await r.page(0, 3)).map((x) => x.customId), ['r-0', 'r-1', 'r-2']);
    assert.equal(r.complete, false, 'the first page did not wait for the rest of the file');
    await r.total();
    assert.equal(r.complete, true);
    const onlyErrors = BatchResults.open({ error: small });
    await onlyErrors.total();
    assert.equal(onlyErrors.complete, true);
    const onlyOutput = BatchResults.open({ output: small });
    await onlyOutput.total();
    assert.equal(onlyOutput.complete, true);
    assert.equal(BatchResults.open({}).complete, true);
  });

  it('is not complete while the error file is still being indexed', async () => {
    const r = BatchResults.open({ output: small, error: big });
    // Past the output's 4 rows: waits for the output file, then for one line of the errors only.
    assert.deepEqual((await r.page(4, 1)).map((x) => [x.index, x.source, x.customId]), [[4, 'error', 'r-0']]);
    assert.equal(r.complete, false);
    await r.total();
  });

  it('reads pages asked for at once, far apart, each in full', async () => {
    const index = LineIndex.open(big);
    const [near, far, mid] = await Promise.all([index.read(0, 2), index.read(50_000, 2), index.read(30_000, 2)]);
    assert.deepEqual([near, far, mid].map((p) => p.map((b) => (JSON.parse(b.toString()) as { custom_id: string }).custom_id)), [
      ['r-0', 'r-1'],
      ['r-50000', 'r-50001'],
      ['r-30000', 'r-30001'],
    ]);
    assert.deepEqual(await index.read(5, 0), [], 'an empty page reads nothing');
    assert.deepEqual(await index.read(60_000, 3), []);
  });

  it('a page waits only for its own lines, whichever page asked first', async () => {
    const index = LineIndex.open(big);
    // A page past the end asked first must not hold back a near page asked after it.
    const far = index.read(70_000, 1);
    const near = await index.read(0, 1);
    assert.equal(index.complete, false, 'the near page came before the whole file was indexed');
    assert.equal((JSON.parse(near[0]!.toString()) as { custom_id: string }).custom_id, 'r-0');
    assert.deepEqual(await far, []);
  });

  it('a page across the end of the output file takes only as many error rows as it lacks', async () => {
    const r = BatchResults.open({ output: small, error: small });
    assert.deepEqual((await r.page(3, 3)).map((x) => [x.index, x.source, x.customId]), [
      [3, 'output', 'e-3'],
      [4, 'error', 'e-0'],
      [5, 'error', 'e-1'],
    ]);
  });

  it('skips blank lines: they are no rows', async () => {
    const spaced = join(dir, 'spaced.jsonl');
    await writeFile(spaced, `${chat('a', 'x')}\n\n   \n${chat('b', 'y')}\n\t\n`);
    const r = BatchResults.open({ output: spaced });
    assert.equal(await r.total(), 2);
    assert.deepEqual((await r.page(0, 5)).map((x) => x.customId), ['a', 'b']);
  });

  it('reads with a file handle the caller keeps open, and leaves no file open of its own', async function () {
    if ((await openFds()) === undefined) this.skip();
    const index = LineIndex.open(small);
    await index.done;
    const handle = await open(small, 'r');
    try {
      assert.equal((await index.read(0, 1, handle)).length, 1);
      assert.equal((await index.read(1, 1, handle)).length, 1, "the caller's handle is still open");
    } finally {
      await handle.close();
    }
    const before = (await openFds())!;
    for (let i = 0; i < 20; i++) await index.read(i % 4, 1);
    assert.ok((await openFds())! < before + 5, 'files are closed');
  });

  it('stops indexing when the table is closed', async () => {
    const abort = new AbortController();
    abort.abort();
    const r = BatchResults.open({ output: big }, abort.signal);
    await assert.rejects(r.page(0, 1), (e: Error) => e.name === 'AbortError');
  });

  it('an index nobody reads that fails does not crash the process', async () => {
    const seen: unknown[] = [];
    const onRejection = (e: unknown) => seen.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      const index = LineIndex.open(join(dir, 'never-there.jsonl'));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(index.complete, true);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    assert.deepEqual(seen, []);
  });
});

describe('batch results: exports and requests', () => {
  it('writes exports readable by the user only (results may hold private data)', async function () {
    if (process.platform === 'win32') this.skip();
    const out = join(dir, 'private.jsonl');
    await writeFile(out, `${chat('a', 'x')}\n`);
    const r = BatchResults.open({ output: out });
    await r.exportJsonl(join(dir, 'private-export.jsonl'));
    await r.exportCsv(join(dir, 'private-export.csv'));
    assert.equal((await stat(join(dir, 'private-export.jsonl'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'private-export.csv'))).mode & 0o777, 0o600);
  });

  it('an export that cannot be written fails with the reason and leaves nothing behind', async () => {
    const out = join(dir, 'exp.jsonl');
    await writeFile(out, `${chat('a', 'x')}\n`);
    const r = BatchResults.open({ output: out });
    const nowhere = join(dir, 'no-such-folder');
    await assert.rejects(r.exportJsonl(join(nowhere, 'x.jsonl')), (e: NodeJS.ErrnoException) => e.code === 'ENOENT' && e.syscall === 'open');
    await assert.rejects(r.exportCsv(join(nowhere, 'x.csv')), (e: NodeJS.ErrnoException) => e.code === 'ENOENT' && e.syscall === 'open');
    const gone = BatchResults.open({ output: join(dir, 'vanished.jsonl') });
    const dest = join(dir, 'from-vanished.jsonl');
    await assert.rejects(gone.exportJsonl(dest), /ENOENT/);
    assert.deepEqual((await readdir(dir)).filter((n) => n.startsWith('from-vanished')), [], 'neither the export nor its temporary file');
  });

  it('exports a table larger than one write at a time', async () => {
    const out = join(dir, 'wide.jsonl');
    await writeFile(out, `${Array.from({ length: 300 }, (_, i) => chat(`w-${i}`, 'z'.repeat(150))).join('\n')}\n`);
    const csv = join(dir, 'wide.csv');
    assert.equal(await BatchResults.open({ output: out }).exportCsv(csv, 250), 300);
    const rows = (await readFile(csv, 'utf8')).trimEnd().split('\n');
    assert.equal(rows.length, 301);
    assert.equal(rows.at(-1), `w-299,output,200,true,3,5,${'z'.repeat(150)},`);
  });

  it('finds the first request with an id, ids written with escapes, and stops when cancelled', async () => {
    const input = join(dir, 'escaped.jsonl');
    const line = (id: string, n: number) => JSON.stringify({ custom_id: id, body: { n } });
    await writeFile(input, [line('dup', 1), line('dup', 2), '{"custom_id":"\\u00fc","body":{"n":3}}', '{"custom_id":"a\\/1","body":{"n":4}}'].join('\n'));
    assert.deepEqual((await findRequest(input, 'dup'))?.body, { n: 1 });
    assert.deepEqual((await findRequest(input, 'ü'))?.body, { n: 3 });
    assert.deepEqual((await findRequest(input, 'a/1'))?.body, { n: 4 });
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(findRequest(input, 'dup', abort.signal), (e: Error) => e.name === 'AbortError');
  });
});

describe('a result row: edges', () => {
  const row = (line: string) => toRow(Buffer.from(line), 0, 'error');

  it('a line that is JSON but no object (a string, a list, null) is a row that says so, with nothing else', () => {
    for (const line of ['"text"', '[{"custom_id":"c"}]', 'null', '{oops']) {
      const r = row(line);
      assert.deepEqual([r.customId, r.reply, r.ok, r.error], ['', '', false, 'This line of the results file is not a JSON object.'], line);
    }
  });

  it('keeps a reply of exactly 200 characters whole; a 3xx status is no success', () => {
    const body = (content: string) => JSON.stringify({ custom_id: 'c', response: { status_code: 200, body: { choices: [{ message: { content } }] } } });
    assert.equal(row(body('k'.repeat(200))).reply, 'k'.repeat(200));
    assert.equal(row(body('k'.repeat(201))).reply, `${'k'.repeat(199)}…`);
    assert.equal(row(JSON.stringify({ custom_id: 'c', response: { status_code: 300, body: {} } })).ok, false);
    assert.equal(row(JSON.stringify({ custom_id: 'c', response: { status_code: 299, body: {} } })).ok, true);
    assert.equal(row(JSON.stringify({ custom_id: 'c', response: { status_code: 0, body: {} } })).ok, false, 'a request that got no answer');
  });

  it('writes a negative number in CSV as a number, a text starting with a minus as text', () => {
    assert.deepEqual([csvField(-1), csvField('-1')], ['-1', "'-1"]);
  });
});
