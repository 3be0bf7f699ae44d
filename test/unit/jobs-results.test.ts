/** The batch results table: rows read a page at a time through a line index, one line in full, exports, the request a line answers. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchResults, findRequest } from '../../src/jobs/batchResults';
import { LineIndex } from '../../src/jobs/lineIndex';
import { csvField, toRow } from '../../src/jobs/resultRows';

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
