/**
 * The usage tables as CSV: parsed back by an RFC 4180 reader, every cell is what the table holds;
 * names with commas, quotes and line breaks survive, and none runs as a spreadsheet formula.
 */
import assert from 'node:assert/strict';
import { aggregateUsage } from '../../src/usage/aggregate';
import { usageTableCsv } from '../../src/usage/csv';
import { ianaZone } from '../support/zones';
import { csvField } from '../../src/text/csv';
import { NOW, usageRecord } from '../support/usageRecords';

/** RFC 4180: fields split by commas, records by CRLF; quoted fields may hold both, "" is a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += c;
  }
  assert.equal(field + row.join(''), '', 'the text ends with CRLF');
  return rows;
}

const rec = usageRecord;

describe('usage CSV export', () => {
  it('quotes only what needs it, doubles quotes, and defuses formulas', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\r'), '"cr\r"');
    assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    for (const f of ['+1', '-1', '@SUM(A1)', '\tx']) assert.equal(csvField(f), `'${f}`);
    assert.equal(csvField('\rx'), `"'\rx"`);
    assert.equal(csvField('a=b'), 'a=b');
    assert.equal(csvField(0.25), '0.25');
    assert.equal(csvField(0), '0');
    assert.equal(csvField(undefined), '');
    assert.equal(csvField(Number.NaN), '');
    assert.equal(csvField(''), '');
  });

  it('writes the per-deployment table that parses back to the same numbers, cost empty without a price', async () => {
    const label = 'Contoso, "prod"\nwest';
    const s = await aggregateUsage([
      rec({ connectionLabel: label }),
      rec({ connectionLabel: label, totalMs: 3000 }),
      rec({ deployment: '=cmd', model: 'unknown-model', modelVersion: undefined, outcome: { kind: 'rate_limited' } }),
    ], {
      now: NOW,
      zone: ianaZone('UTC'),
    });
    const rows = parseCsv(usageTableCsv(s));
    assert.equal(rows[0].length, 21);
    assert.deepEqual(rows[0], [
      'window', 'connection', 'deployment', 'model', 'model version', 'requests', 'input tokens', 'cached input tokens', 'output tokens', 'reasoning tokens',
      'audio input tokens', 'audio output tokens',
      'first token p50 (ms)', 'first token p95 (ms)', 'total p50 (ms)', 'total p95 (ms)', '429 responses', 'other errors', 'estimated cost (USD)', 'requests without a price',
      'answered by',
    ]);
    assert.equal(rows.length, 1 + 3 * 2);
    const today = rows.filter((r) => r[0] === 'today');
    assert.deepEqual(today.map((r) => r[2]), ['gpt-4o', "'=cmd"], 'sorted by connection, then deployment');
    const prod = today[0];
    assert.equal(prod[1], label);
    assert.deepEqual(prod.slice(3), [
      'gpt-4o', '2024-11-20', '2', '2000', '800', '1000', '200', '0', '0', '300', '300', '1000', '3000', '0', '0',
      String(Math.round(2 * ((600 * 2.5 + 400 * 1.25 + 500 * 10) / 1e6) * 1e6) / 1e6),
      '0',
      '',
    ]);
    assert.deepEqual(today[1].slice(3, 5), ['unknown-model', '']);
    assert.deepEqual(today[1].slice(10), ['0', '0', '', '', '', '', '1', '0', '', '1', ''], 'no completed request: no times');
    assert.deepEqual([...new Set(rows.slice(1).map((r) => r[0]))], ['today', '7 days', '30 days']);
  });
});
