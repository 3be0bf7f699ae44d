import assert from 'node:assert/strict';
import dotenv from 'dotenv';
import { setEnvVariable } from '../../src/webhooks/endpoints/dotenv';
import { parseEnv } from '../../src/webhooks/endpoints/dotenvParse';
import { seededRandom } from '../support/random';

/**
 * The `dotenv` package is the peer: whatever it read from a file before the secret was written,
 * it reads the same afterwards for every other variable, and reads the secret for ours. Both of
 * its parsers (the default one and `fast`) are asked.
 */
const parsers: Array<[string, (text: string) => Record<string, string>]> = [
  ['dotenv', (text) => dotenv.parse(text)],
  ['dotenv fast', (text) => dotenv.parse(text, { fast: true } as dotenv.DotenvParseOptions)],
];

function assertOthersKept(before: string, name: string, secret: string, label: string): string {
  const after = setEnvVariable(before, name, secret).text;
  for (const [peer, parse] of parsers) {
    const expected = { ...parse(before), [name]: secret };
    assert.deepEqual(parse(after), expected, `${peer}, ${label}:\n--- before\n${before}\n--- after\n${after}`);
  }
  return after;
}

/** Lines people (and attackers) put in .env files. */
const PIECES = [
  'WEBHOOK_SECRET="old',
  "WEBHOOK_SECRET='old",
  'WEBHOOK_SECRET=old',
  'WEBHOOK_SECRET="old" # the old one',
  'export WEBHOOK_SECRET = "old\\"',
  'WEBHOOK_SECRET: old',
  'WEBHOOK_SECRET=',
  'DATABASE_URL=postgres://u:p@db:5432/app?ssl=true',
  'API_TOKEN="tok-123"',
  "NAME='it''s'",
  'QUOTED_INSIDE=a "b" c',
  'HALF=x"y',
  'TRAIL="a" b"',
  'ESC="a\\"b"',
  'ESC_END="a\\"',
  "SINGLE_BS='C:\\'",
  'PEM="-----BEGIN-----',
  'WEBHOOK_SECRET=inside',
  '-----END-----"',
  'MULTI=`one',
  'two` # done',
  '# a comment with "quotes" and \'more',
  '# WEBHOOK_SECRET=commented',
  '',
  '   ',
  'HASH=a#b',
  'HASHQ="a#b" # c',
  'NOT AN ASSIGNMENT',
  'EMPTYQ=""',
  'SPACED  =  "x y"  ',
  'COLON:  value',
  '1DIGIT=one',
  'dotted.key=1',
  'LATE=',
  '"',
  "'",
  'NEWLINES="a\\nb"',
];

describe('the .env writer beside the dotenv package', () => {
  const secret = 'whsec_abc+/def=';

  it('the reported case: a value that opens a quote does not swallow the variables after it', () => {
    const before = 'WEBHOOK_SECRET="old\nDATABASE_URL=postgres://db/app\nAPI_TOKEN="tok-123"\n';
    const after = assertOthersKept(before, 'WEBHOOK_SECRET', secret, 'reported');
    assert.equal(dotenv.parse(after).DATABASE_URL, 'postgres://db/app');
    assert.equal(dotenv.parse(after).API_TOKEN, 'tok-123');
  });

  it('unclosed quotes, quotes inside values, values over several lines, comments and CRLF: every other variable reads the same', () => {
    const files = [
      "A='x\nWEBHOOK_SECRET=old\nB='y' z'\nC=\"k\\\"\n",
      'A="x\\"\nB=1\nWEBHOOK_SECRET="s"\nC="end"\n',
      'PEM="-----BEGIN-----\nWEBHOOK_SECRET=inside\n-----END-----"\nWEBHOOK_SECRET=real\n',
      'A=\n"quoted on the next line"\nWEBHOOK_SECRET=x\n',
      'WEBHOOK_SECRET\n=spaced\nB=2',
      'WEBHOOK_SECRET=`a\r\nb` # c\r\nB="d"\r\n',
      'A=1\rWEBHOOK_SECRET="x\rB=2\r',
      'export\nWEBHOOK_SECRET=1\n',
    ];
    for (const [i, f] of files.entries()) assertOthersKept(f, 'WEBHOOK_SECRET', secret, `file ${i}`);
  });

  it('2,000 random files made of tricky lines, with LF, CRLF and lone CR, with and without a final break', function () {
    this.timeout(60_000);
    const rnd = seededRandom(25);
    const secrets = [secret, 'a b#c', 'x"y', ''];
    let replaced = 0;
    let refused = 0;
    for (let n = 0; n < 2000; n++) {
      const eol = ['\n', '\r\n', '\r'][Math.floor(rnd() * 3)];
      const lines = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => PIECES[Math.floor(rnd() * PIECES.length)]);
      const text = lines.join(eol) + (rnd() < 0.5 ? eol : '');
      const value = secrets[n % secrets.length];
      try {
        assertOthersKept(text, 'WEBHOOK_SECRET', value, `file ${n}`);
      } catch (err) {
        // The writer may refuse a file it cannot change safely; it must never damage one.
        if ((err as Error).message.includes("cannot change safely")) { refused++; continue; }
        throw err;
      }
      if (setEnvVariable(text, 'WEBHOOK_SECRET', value).replaced) replaced++;
    }
    assert.ok(replaced > 500, `files with an assignment to replace were tried (${replaced})`);
    assert.ok(refused < 20, `the writer refused only the rare file it cannot change safely (${refused} of 2,000)`);
  });

  it('an earlier unclosed quote whose search the old value stopped: the new value stops it too (double quotes), or nothing is written', () => {
    const before = 'A="abc\nWEBHOOK_SECRET="old"\nC=x\\"\n';
    assert.equal(dotenv.parse(before).A, '"abc');
    const after = assertOthersKept(before, 'WEBHOOK_SECRET', secret, 'search stopped by the old value');
    assert.equal(after, `A="abc\nWEBHOOK_SECRET="${secret}"\nC=x\\"\n`);
    assert.throws(() => setEnvVariable(before, 'WEBHOOK_SECRET', 'a\\b'), /cannot change safely around WEBHOOK_SECRET, so it was left as it was/);
  });

  it('reads each file as dotenv does (the rules the writer relies on)', () => {
    const rnd = seededRandom(7);
    for (let n = 0; n < 2000; n++) {
      const eol = ['\n', '\r\n'][Math.floor(rnd() * 2)];
      const text = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => PIECES[Math.floor(rnd() * PIECES.length)]).join(eol);
      const ours = Object.fromEntries(parseEnv(text).map((a) => [a.key, a.value]));
      assert.deepEqual(ours, dotenv.parse(text, { fast: true } as dotenv.DotenvParseOptions), text);
    }
  });
});
