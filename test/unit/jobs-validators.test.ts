/** The local checks run before anything is uploaded: the line reader, batch input, fine-tuning data. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchApi, checkBatchInput, deploymentInfo, isBatchSku } from '../../src/jobs/batchInput';
import { eachLine, isBlank, LineTooLongError, type Line } from '../../src/jobs/lines';
import { describeProblems, MAX_PROBLEMS } from '../../src/jobs/problems';
import { checkTrainingData, messagesProblem } from '../../src/jobs/trainingData';

let dir: string;
before(async () => (dir = await mkdtemp(join(tmpdir(), 'jobs-check-'))));
after(() => rm(dir, { recursive: true, force: true }));

let n = 0;
async function file(content: string | Buffer): Promise<string> {
  const path = join(dir, `f${n++}.jsonl`);
  await writeFile(path, content);
  return path;
}

const deployments = [
  { name: 'batchy', sku: 'GlobalBatch' },
  { name: 'dz', sku: 'DataZoneBatch' },
  { name: 'live', sku: 'Standard' },
];
const req = (id: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'batchy', messages: [] }, ...extra });

describe('line reader', () => {
  it('gives every line with its number and byte offset, across reads, CRLF and a last line without newline', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `{"i":${i},"pad":"${'é'.repeat(i % 1400)}"}`);
    const text = `${lines.slice(0, 1500).join('\r\n')}\r\n${lines.slice(1500).join('\n')}`;
    const path = await file(text);
    const raw = await readFile(path);
    const seen: Line[] = [];
    assert.equal(await eachLine(path, (l) => void seen.push({ ...l, bytes: Buffer.from(l.bytes) })), 3000);
    assert.ok(raw.length > 2 * 1024 * 1024, 'the file spans several reads');
    assert.deepEqual(seen.map((l) => l.bytes.toString()), lines);
    assert.deepEqual(seen.map((l) => l.number), lines.map((_, i) => i + 1));
    for (const l of seen) assert.equal(raw.subarray(l.offset, l.offset + l.bytes.length).toString(), l.bytes.toString(), `offset of line ${l.number}`);
  });

  it('refuses a line longer than the limit (a file that is not JSONL), naming it; an aborted read stops', async () => {
    const path = await file(`short\n${'x'.repeat(600 * 1024)}\n`);
    await assert.rejects(
      eachLine(path, () => {}, { maxLineBytes: 300 * 1024 }),
      (e: Error) => e.name === 'LineTooLongError' && e.message === 'Line 2 is longer than 307200 bytes: is this a JSONL file (one JSON object per line)?',
    );
    assert.equal(await eachLine(path, () => {}, { maxLineBytes: 700 * 1024 }), 2);
    assert.match(new LineTooLongError(3).message, /^Line 3 is longer than 64 MB/);
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(eachLine(path, () => {}, { signal: abort.signal }), (e: Error) => e.name === 'AbortError');
  });

  it('gives a line that spans many reads whole, with the lines around it', async () => {
    const long = `{"pad":"${'y'.repeat(3 * 1024 * 1024)}"}`;
    const path = await file(`first\n${long}\nlast`);
    const seen: Line[] = [];
    assert.equal(await eachLine(path, (l) => void seen.push({ ...l, bytes: Buffer.from(l.bytes) })), 3);
    assert.deepEqual(seen.map((l) => [l.number, l.offset, l.bytes.length]), [[1, 0, 5], [2, 6, long.length], [3, 7 + long.length, 4]]);
    assert.equal(seen[1]!.bytes.toString(), long);
  });

  it('stops when told, and an empty last line after the final newline is not a line', async () => {
    const path = await file('a\nb\nc\n');
    const got: string[] = [];
    assert.equal(await eachLine(path, (l) => (got.push(l.bytes.toString()), l.number < 2)), 2);
    assert.deepEqual(got, ['a', 'b']);
    assert.equal(await eachLine(path, () => {}), 3);
    assert.equal(await eachLine(await file(''), () => {}), 0);
    assert.equal(isBlank(Buffer.from(' \t ')), true);
    assert.equal(isBlank(Buffer.from(' x')), false);
  });
});

describe('batch input check', () => {
  it('passes a good file: counts requests, names the deployment; blank lines are skipped', async () => {
    const path = await file(`${req('a')}\n\n${req('b')}\n`);
    assert.deepEqual(await checkBatchInput(path, { endpoint: '/v1/chat/completions', deployments }), { requests: 2, deployment: 'batchy', problems: [], problemCount: 0 });
    const responses = await file(`${req('a', { url: '/responses' })}\n`);
    assert.equal((await checkBatchInput(responses, { endpoint: '/v1/responses', deployments })).problemCount, 0, '/responses and /v1/responses are the same endpoint');
  });

  it('names each bad line: not JSON, no or duplicate custom_id, method, url, model', async () => {
    const path = await file(
      [
        req('a'),
        'not json',
        '[1]',
        req('a'),
        req(''),
        req('m', { method: 'GET' }),
        req('u', { url: '/v1/embeddings' }),
        req('x', { body: { messages: [] } }),
        req('y', { body: { model: 'dz' } }),
      ].join('\n'),
    );
    const r = await checkBatchInput(path, { endpoint: '/chat/completions', deployments });
    assert.equal(r.requests, 9);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.message.replace(/\(.*\)/, '(…)')]),
      [
        [2, 'it is not valid JSON (…)'],
        [3, 'it is not a JSON object'],
        [4, 'the custom_id "a" is already used on line 1'],
        [5, 'it has no "custom_id" (…)'],
        [6, '"method" must be "POST" (…)'],
        [7, '"url" is "/v1/embeddings", but this batch runs /chat/completions: every line must use the batch\'s endpoint'],
        [8, 'its "body" has no "model" (…)'],
        [9, 'it names the deployment "dz", but line 1 names "batchy": a batch runs on one deployment'],
      ],
    );
    assert.equal(r.problemCount, 8);
  });

  it('refuses an unknown deployment, a live one, a BOM, an empty file and an endpoint batches cannot run', async () => {
    const unknown = await checkBatchInput(await file(req('a', { body: { model: 'nope' } })), { endpoint: '/v1/chat/completions', deployments });
    assert.deepEqual(unknown.problems, [{ line: 1, message: 'there is no deployment named "nope" on this connection' }]);
    const unchecked = await checkBatchInput(await file(req('a', { body: { model: 'nope' } })), { endpoint: '/v1/chat/completions' });
    assert.equal(unchecked.problemCount, 0, 'without a deployments list the name is not checked');
    const live = await checkBatchInput(await file(req('a', { body: { model: 'live' } })), { endpoint: '/v1/chat/completions', deployments });
    assert.match(live.problems[0]!.message, /"live" is Standard; batches run on a Global-Batch or Data Zone Batch deployment/);
    const bom = await checkBatchInput(await file(`\uFEFF${req('a')}\n`), { endpoint: '/v1/chat/completions', deployments });
    assert.deepEqual([bom.requests, bom.problems[0]!.line, /byte order mark/.test(bom.problems[0]!.message)], [1, 1, true]);
    const empty = await checkBatchInput(await file('\n\n'), { endpoint: '/v1/chat/completions', deployments });
    assert.deepEqual(empty.problems, [{ line: 0, message: 'the file has no requests (one JSON request per line)' }]);
    await assert.rejects(checkBatchInput(await file(req('a')), { endpoint: '/v1/embeddings' }), /use \/v1\/chat\/completions or \/v1\/responses/);
  });

  it('refuses a file over 200 MB without reading it, and more than 100,000 requests, the file\'s problems first', async () => {
    const huge = await file('');
    await truncate(huge, 201 * 1024 * 1024);
    const big = await checkBatchInput(huge, { endpoint: '/v1/chat/completions' });
    assert.deepEqual(big, { requests: 0, problems: [{ line: 0, message: 'the file is 201 MB; a batch input file may be at most 200 MB: split it into several batches' }], problemCount: 1 });
    const many = await file(Array.from({ length: 100_001 }, (_, i) => (i === 5 ? 'oops' : req(`r${i}`))).join('\n'));
    const r = await checkBatchInput(many, { endpoint: '/v1/chat/completions' });
    assert.equal(r.requests, 100_001);
    assert.deepEqual(r.problems.map((p) => p.line), [0, 6]);
    assert.equal(r.problems[0]!.message, 'the file has 100001 requests; a batch takes at most 100000: split it');
    const exactly = await file(Array.from({ length: 100_000 }, (_, i) => req(`r${i}`)).join('\n'));
    assert.equal((await checkBatchInput(exactly, { endpoint: '/v1/chat/completions' })).problemCount, 0);
  });

  it('keeps the first 20 problems and counts the rest', async () => {
    const r = await checkBatchInput(await file(Array.from({ length: 30 }, () => 'x').join('\n')), { endpoint: '/v1/chat/completions' });
    assert.equal(r.problems.length, MAX_PROBLEMS);
    assert.equal(r.problemCount, 30);
    assert.equal(
      describeProblems('in.jsonl', r.problems, r.problemCount).replace(/\(.*?\)/g, ''),
      'in.jsonl: line 1: it is not valid JSON ; line 2: it is not valid JSON ; line 3: it is not valid JSON ; and 27 more problems.',
    );
    assert.equal(describeProblems('a', [{ line: 0, message: 'x' }, { line: 2, message: 'y' }, { line: 3, message: 'z' }], 4), 'a: x; line 2: y; line 3: z; and 1 more problem.');
    assert.equal(describeProblems('a', [{ line: 1, message: 'x' }]), 'a: line 1: x.');
  });

  it('trusts a SKU only from Resource Manager (the data plane gives a scale type), and then only to refuse a live deployment', async () => {
    assert.deepEqual(deploymentInfo({ name: 'a', model: 'm', sku: 'GlobalBatch', source: 'arm' }), { name: 'a', sku: 'GlobalBatch' });
    assert.deepEqual(deploymentInfo({ name: 'a', model: 'm', sku: 'manual', source: 'data-plane' }), { name: 'a' });
    const path = await file(req('a', { body: { model: 'live' } }));
    assert.equal((await checkBatchInput(path, { endpoint: '/v1/chat/completions', deployments: [{ name: 'live' }] })).problemCount, 0);
  });

  it('knows batch SKUs and endpoints however they are spelled', () => {
    for (const s of ['GlobalBatch', 'globalbatch', 'DataZoneBatch', 'Data Zone Batch', 'Global-Batch']) assert.equal(isBatchSku(s), true, s);
    for (const s of ['Standard', 'GlobalStandard', undefined, 'BatchStandard']) assert.equal(isBatchSku(s), false, String(s));
    assert.deepEqual(
      ['/v1/chat/completions', ' /chat/completions', '/v1/responses', '/responses', '/v1/embeddings', '/v2/responses', 3].map(batchApi),
      ['chat', 'chat', 'responses', 'responses', undefined, undefined, undefined],
    );
  });
});

describe('fine-tuning data check', () => {
  const ex = (i: number) => JSON.stringify({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: `q${i}` }, { role: 'assistant', content: 'a', weight: 1 }] });
  const dpo = JSON.stringify({
    input: { messages: [{ role: 'user', content: 'q' }] },
    preferred_output: [{ role: 'assistant', content: 'good' }],
    non_preferred_output: [{ role: 'assistant', content: 'bad' }],
  });

  it('passes ten chat examples (a BOM and CRLF allowed) and preference pairs', async () => {
    const r = await checkTrainingData(await file(`\uFEFF${Array.from({ length: 9 }, (_, i) => ex(i)).join('\r\n')}\r\n${dpo}\r\n`));
    assert.deepEqual(r, { examples: 10, problems: [], problemCount: 0 });
  });

  it('names each line that is not an example, and too few examples', async () => {
    const tool = JSON.stringify({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [{ id: 't' }] }] });
    const lines = [
      ex(0),
      '{"prompt":"p","completion":"c"}',
      '{"messages":[]}',
      '{"messages":[{"role":"robot","content":"x"}]}',
      '{"messages":[{"role":"user"}]}',
      '{"messages":[{"role":"user","content":"q"}]}',
      '{"messages":[{"role":"assistant","content":"a","weight":2}]}',
      '{"messages":[7]}',
      '{"input":{"messages":[]},"preferred_output":[1],"non_preferred_output":[1]}',
      '{"input":{"messages":[{"role":"user","content":"q"}]},"preferred_output":[1]}',
      tool,
      'nope',
    ];
    const r = await checkTrainingData(await file(lines.join('\n')), { minExamples: 13 });
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.message.replace(/\(.*\)/, '(…)')]),
      [
        [0, 'it has 12 examples; fine-tuning needs at least 13'],
        [2, 'it is not a chat example: expected {"messages": [{"role": "user", …}, {"role": "assistant", …}]}'],
        [3, 'it has no "messages" list'],
        [4, 'messages[0] has no valid "role" (…)'],
        [5, 'messages[0] has no "content"'],
        [6, 'it has no assistant message to learn from'],
        [7, 'messages[0] has a "weight" other than 0 or 1'],
        [8, 'messages[0] is not an object'],
        [9, 'its "input" is not a conversation (…)'],
        [10, 'it has no "non_preferred_output" list (…)'],
        [12, 'it is not valid JSON (…)'],
      ],
    );
    assert.equal((await checkTrainingData(await file(ex(1)))).problems[0]!.message, 'it has 1 example; fine-tuning needs at least 10');
    assert.equal(messagesProblem([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], false), undefined);
    assert.equal(messagesProblem([{ role: 'assistant', function_call: { name: 'f' } }]), undefined);
  });
});

describe('batch input check: what each message shows', () => {
  const chatBatch = { endpoint: '/v1/chat/completions', deployments };

  it('quotes the method, url, id and model a line gave, shortened, and says what a body without a model lacks', async () => {
    const long = 'q'.repeat(150);
    const path = await file(
      [
        req(long),
        req(long),
        req('m', { method: 'GET' }),
        req('n', { method: 'P'.repeat(60) }),
        req('o', { method: undefined }),
        req('u', { url: `/v1/${'x'.repeat(100)}` }),
        req('v', { body: null }),
        req('w', { body: 'text' }),
        req('x', { body: { model: `other-${'d'.repeat(120)}` } }),
      ].join('\n'),
    );
    const r = await checkBatchInput(path, chatBatch);
    const byLine = new Map(r.problems.map((p) => [p.line, p.message]));
    assert.equal(byLine.get(2), `the custom_id "${'q'.repeat(100)}" is already used on line 1`);
    assert.equal(byLine.get(3), '"method" must be "POST" (got "GET")');
    assert.equal(byLine.get(4), `"method" must be "POST" (got "${'P'.repeat(39)})`);
    assert.equal(byLine.get(5), '"method" must be "POST" (got null)');
    assert.equal(byLine.get(6), `"url" is ${JSON.stringify(`/v1/${'x'.repeat(100)}`).slice(0, 80)}, but this batch runs /v1/chat/completions: every line must use the batch's endpoint`);
    assert.equal(byLine.get(7), 'its "body" has no "model" (the name of a batch deployment)');
    assert.equal(byLine.get(8), 'its "body" has no "model" (the name of a batch deployment)');
    assert.equal(byLine.get(9), `it names the deployment "other-${'d'.repeat(94)}", but line 1 names "batchy": a batch runs on one deployment`);
    const unknown = await checkBatchInput(await file(req('a', { body: { model: 'n'.repeat(130) } })), chatBatch);
    assert.equal(unknown.problems[0]!.message, `there is no deployment named "${'n'.repeat(100)}" on this connection`);
  });

  it('calls a line that is JSON but no object (null, a number, a string) not an object', async () => {
    const r = await checkBatchInput(await file([req('a'), 'null', '5', '"text"', 'true'].join('\n')), chatBatch);
    assert.deepEqual(r.problems, [2, 3, 4, 5].map((line) => ({ line, message: 'it is not a JSON object' })));
  });

  it('finds a byte order mark only at the very start of the file; other lines starting with one are not JSON', async () => {
    // U+F03F and U+FEC0 share two of the three bytes of a BOM (EF BB BF).
    const r = await checkBatchInput(await file([req('a'), `\uFEFF${req('b')}`, `\uF03F${req('c')}`, `\uFEC0${req('d')}`].join('\n')), chatBatch);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.message.replace(/ \(.*\)$/, '')]),
      [
        [2, 'it is not valid JSON'],
        [3, 'it is not valid JSON'],
        [4, 'it is not valid JSON'],
      ],
    );
    for (const start of [Buffer.from('\uF03F'), Buffer.from('\uFEC0'), Buffer.from([0x78, 0xbb, 0xbf])]) {
      const first = await checkBatchInput(await file(Buffer.concat([start, Buffer.from(req('a'))])), chatBatch);
      assert.deepEqual(first.problems.map((p) => [p.line, /byte order mark/.test(p.message)]), [[1, false]], start.toString('hex'));
    }
  });

  it('reads a file of exactly 200 MB (the limit) line by line', async () => {
    const path = await file('');
    await truncate(path, 200 * 1024 * 1024);
    // A sparse file: a newline every MB makes lines of NUL bytes, each not JSON.
    const { open } = await import('node:fs/promises');
    const fh = await open(path, 'r+');
    for (let i = 1; i <= 200; i++) await fh.write('\n', i * 1024 * 1024 - 1);
    await fh.close();
    const r = await checkBatchInput(path, { endpoint: '/v1/chat/completions' });
    assert.equal(r.requests, 200);
    assert.equal(r.problems[0]!.line, 1);
    assert.match(r.problems[0]!.message, /^it is not valid JSON/);
  });

  it('stops when cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(checkBatchInput(await file(req('a')), { ...chatBatch, signal: abort.signal }), (e: Error) => e.name === 'AbortError');
    await assert.rejects(checkTrainingData(await file(req('a')), { signal: abort.signal }), (e: Error) => e.name === 'AbortError');
  });

  it('knows a batch SKU with stray spaces and a path that only contains /v1 is no endpoint', () => {
    assert.equal(isBatchSku('GlobalBatch '), true);
    assert.equal(isBatchSku(' Data_Zone_Batch'), true);
    assert.equal(batchApi('/chat/v1/completions'), undefined);
  });
});

describe('fine-tuning data check: each rule', () => {
  const chatEx = JSON.stringify({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }] });
  const nine = Array.from({ length: 9 }, () => chatEx);

  it('names messages that are null, a call that is null, weights of 0, half a preference pair, and empty outputs', async () => {
    const lines = [
      '{"messages":[null]}',
      '{"messages":[{"role":"user","content":"q"},{"role":"assistant","function_call":null}]}',
      '{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a","weight":0}]}',
      '{"input":{"messages":[{"role":"user","content":"q"}]}}',
      '{"preferred_output":[{"role":"assistant","content":"a"}],"non_preferred_output":[{"role":"assistant","content":"b"}]}',
      '{"input":{"messages":[{"role":"user","content":"q"}]},"preferred_output":[],"non_preferred_output":[{"role":"assistant","content":"b"}]}',
      ...nine,
    ];
    const r = await checkTrainingData(await file(lines.join('\n')));
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.message]),
      [
        [1, 'messages[0] is not an object'],
        [2, 'messages[1] has no "content"'],
        [4, 'it has no "preferred_output" list (a preference example needs both outputs)'],
        [5, 'its "input" is not a conversation (it has no "messages" list)'],
        [6, 'it has no "preferred_output" list (a preference example needs both outputs)'],
      ],
    );
  });

  it('skips blank lines, and takes a byte order mark only at the very start of the file', async () => {
    const r = await checkTrainingData(await file([`\uFEFF${chatEx}`, '', '  \t', ...nine, `\uFEFF${chatEx}`, `\uF03F${chatEx}`, `\uFEC0${chatEx}`].join('\n')));
    assert.equal(r.examples, 13);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.message.replace(/ \(.*\)$/, '')]),
      [
        [13, 'it is not valid JSON'],
        [14, 'it is not valid JSON'],
        [15, 'it is not valid JSON'],
      ],
    );
    for (const start of [Buffer.from('\uF03F'), Buffer.from('\uFEC0'), Buffer.from([0x78, 0xbb, 0xbf])]) {
      const first = await checkTrainingData(await file(Buffer.concat([start, Buffer.from([chatEx, ...nine].join('\n'))])));
      assert.deepEqual(first.problems.map((p) => p.line), [1], start.toString('hex'));
    }
  });
});

describe('line reader: long lines and open files', () => {
  it('gives a line that spans several reads the offset where it starts', async () => {
    const long = 'y'.repeat(700 * 1024);
    const path = await file(`a\n${long}\nb`);
    const seen: Array<[number, number, number]> = [];
    await eachLine(path, (l) => void seen.push([l.number, l.offset, l.bytes.length]));
    assert.deepEqual(seen, [
      [1, 0, 1],
      [2, 2, long.length],
      [3, 3 + long.length, 1],
    ]);
  });

  it('takes a line of exactly the limit, and names the limit in MB when it is whole megabytes', async () => {
    const path = await file(`${'z'.repeat(256 * 1024)}\n`);
    assert.equal(await eachLine(path, () => {}, { maxLineBytes: 256 * 1024 }), 1);
    assert.match(new LineTooLongError(4, 1024 * 1024).message, /^Line 4 is longer than 1 MB:/);
  });

  it('leaves no file open after reading (a long session must not run out of handles)', async function () {
    const { readdir: list } = await import('node:fs/promises');
    const fds = async () => (await list('/proc/self/fd').catch(() => undefined))?.length;
    if ((await fds()) === undefined) this.skip();
    const path = await file('a\nb\nc\n');
    const before = (await fds())!;
    for (let i = 0; i < 20; i++) await eachLine(path, () => {});
    assert.ok((await fds())! < before + 5, 'files are closed');
  });
});
