/**
 * Reading the usage log's lines from a byte on: every whole line, where the last one ends (what a
 * day summary covers) and the torn or unfinished text after it, across reads of 1 MiB.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachLine, readLinesFrom } from '../../src/usage/lines';

async function read(text: string, start = 0) {
  const path = join(mkdtempSync(join(tmpdir(), 'usage-lines-')), 'log.jsonl');
  writeFileSync(path, text);
  const file = await open(path, 'r');
  try {
    const lines: string[] = [];
    const { end, rest } = await readLinesFrom(file, start, (l) => lines.push(l));
    return { lines, end, rest };
  } finally {
    await file.close();
  }
}

describe('usage log lines', () => {
  it('gives every whole line, where the last one ends, and the unfinished text after it, across many reads', async () => {
    // Lines of 700 KiB: most cross the 1 MiB reads; one is longer than a read; '✓' is three bytes.
    const long = (c: string, n = 700 * 1024) => `${c.repeat(n - 1)}✓`;
    const lines = [long('a'), long('b'), long('c', 2.5 * 1024 * 1024), long('d'), 'e'];
    const text = `${lines.join('\n')}\n`;
    const whole = Buffer.byteLength(text);
    assert.deepEqual(await read(text).then((r) => [r.lines.length, r.lines.every((l, i) => l === lines[i]), r.end, r.rest]), [5, true, whole, undefined]);
    const torn = await read(`${text}{"at":12`);
    assert.deepEqual([torn.lines.length, torn.end, torn.rest], [5, whole, '{"at":12']);
    const longTorn = await read(`${text}${long('f', 3 * 1024 * 1024)}`);
    assert.deepEqual([longTorn.lines.length, longTorn.end, longTorn.rest?.length], [5, whole, 3 * 1024 * 1024]);
    // From the start of the fourth line: the rest of the file, its offsets counted from the file's start.
    const from = Buffer.byteLength(`${lines.slice(0, 3).join('\n')}\n`);
    const after = await read(`${text}x`, from);
    assert.deepEqual([after.lines.length, after.lines[0] === lines[3], after.end, after.rest], [2, true, whole, 'x']);
    // Nothing new: the end stays where reading started.
    assert.deepEqual(await read(text, whole), { lines: [], end: whole, rest: undefined });
    assert.deepEqual(await read('\n\nx\n', 0), { lines: ['x'], end: 4, rest: undefined });
    assert.deepEqual(await read('\n'), { lines: [], end: 1, rest: undefined });
  });

  it('ends a line cut by a read where the next read starts with its newline, or holds its last newline', async () => {
    const mib = 1024 * 1024;
    const a = 'a'.repeat(mib);
    const cut = await read(`${a}\nb\ntail`);
    assert.deepEqual([cut.lines.length, cut.lines[0] === a, cut.lines[1], cut.end, cut.rest], [2, true, 'b', mib + 3, 'tail']);
    const x = 'x'.repeat(1.5 * mib);
    const held = await read(`${x}\ntorn`);
    assert.deepEqual([held.lines.length, held.end, held.rest], [1, 1.5 * mib + 1, 'torn']);
    const blank = await read(`${x}\n\ntorn`);
    assert.deepEqual([blank.lines.length, blank.end, blank.rest], [1, 1.5 * mib + 2, 'torn']);
  });

  it('reads every line of a file by name, closes it, and says why it cannot read one', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'usage-lines-')), 'log.jsonl');
    writeFileSync(path, 'a\nb');
    const fds = readdirSync('/proc/self/fd').length;
    const seen: string[] = [];
    await forEachLine(path, (l) => seen.push(l));
    assert.deepEqual(seen, ['a', 'b']);
    assert.equal(readdirSync('/proc/self/fd').length, fds);
    await forEachLine(`${path}.none`, () => assert.fail('a missing file has no lines'));
    await assert.rejects(forEachLine(join(path, 'inside'), () => undefined), /ENOTDIR/);
  });
});
