import assert from 'node:assert/strict';
import { decodeEnvFile, setEnvVariable, validEnvName } from '../../src/webhooks/endpoints/dotenv';

describe('writing a secret into a .env file', () => {
  const secret = 'whsec_abc+/def=';

  it("replaces the line that sets the variable (the last, as loaders keep it) and leaves every other byte", () => {
    const before = '# app settings\nPORT=3000\nWEBHOOK_SECRET=old\n\n# again\nexport WEBHOOK_SECRET="older"\nOTHER=1\n';
    const { text, replaced } = setEnvVariable(before, 'WEBHOOK_SECRET', secret);
    assert.equal(replaced, true);
    assert.equal(text, `# app settings\nPORT=3000\nWEBHOOK_SECRET=old\n\n# again\nexport WEBHOOK_SECRET=${secret}\nOTHER=1\n`);
  });

  it('the first line, and whatever spacing and `export` the line had, are kept in place', () => {
    assert.deepEqual(setEnvVariable('S=old\nA=1\n', 'S', secret), { text: `S=${secret}\nA=1\n`, replaced: true });
    assert.equal(setEnvVariable('A=1\n  export   S = old\n', 'S', secret).text, `A=1\n  export   S=${secret}\n`);
  });

  it('adds a line at the end, with or without a final newline, and keeps CRLF files CRLF', () => {
    assert.equal(setEnvVariable('A=1\nB=2', 'S', secret).text, `A=1\nB=2\nS=${secret}\n`, 'a newline inside is not one at the end');
    assert.deepEqual(setEnvVariable('', 'S', secret), { text: `S=${secret}\n`, replaced: false });
    assert.equal(setEnvVariable('A=1', 'S', secret).text, `A=1\nS=${secret}\n`);
    assert.equal(setEnvVariable('A=1\n', 'S', secret).text, `A=1\nS=${secret}\n`);
    assert.equal(setEnvVariable('A=1\r\nB=2\r\n', 'S', secret).text, `A=1\r\nB=2\r\nS=${secret}\r\n`);
    assert.equal(setEnvVariable('A=1\r\nS=x\r\n', 'S', secret).text, `A=1\r\nS=${secret}\r\n`);
  });

  it('a variable whose name only starts the same is another variable', () => {
    const { text, replaced } = setEnvVariable('S_OLD=1\nXS=2\n', 'S', secret);
    assert.equal(replaced, false);
    assert.equal(text, `S_OLD=1\nXS=2\nS=${secret}\n`);
  });

  it('quotes a value a shell would split, refuses one it cannot write, and refuses bad names', () => {
    assert.equal(setEnvVariable('', 'S', 'a b#c').text, "S='a b#c'\n");
    assert.throws(() => setEnvVariable('', 'S', "it's"), /quote or a line break/);
    assert.throws(() => setEnvVariable('', 'S', 'a\nb'), /quote or a line break/);
    for (const bad of ['1ST', 'A-B', '', 'A B', 'A=B']) assert.throws(() => setEnvVariable('', bad, secret), /is not a variable name/, bad);
    assert.equal(validEnvName('WEBHOOK_SECRET_2'), undefined);
    assert.match(validEnvName('2X') ?? '', /letters, digits and underscores/);
  });

  it('a file with mixed line endings keeps each line its own ending', () => {
    assert.equal(setEnvVariable('A=1\r\nS=old\nB=2\r\n', 'S', secret).text, `A=1\r\nS=${secret}\nB=2\r\n`);
    assert.equal(setEnvVariable('A=1\nB=2\r\n', 'S', secret).text, `A=1\nB=2\r\nS=${secret}\r\n`, 'a new line ends like the last one');
    assert.equal(setEnvVariable('A=1\r\nB=2', 'S', secret).text, `A=1\r\nB=2\r\nS=${secret}\r\n`);
  });

  it('keeps a comment after the replaced value', () => {
    assert.equal(setEnvVariable('S=old # from the dashboard\n', 'S', secret).text, `S=${secret} # from the dashboard\n`);
    assert.equal(setEnvVariable("S='o #ld'   # kept\nA=1\n", 'S', secret).text, `S=${secret}   # kept\nA=1\n`);
    assert.equal(setEnvVariable('S="o\\"#ld" # kept\n', 'S', secret).text, `S=${secret} # kept\n`);
    assert.equal(setEnvVariable('S=old\n', 'S', secret).text, `S=${secret}\n`);
  });

  it('a value quoted over several lines is one assignment: replaced whole, and lines inside it are not assignments', () => {
    const pem = 'KEY="-----BEGIN-----\nS=inside\n-----END-----"\nA=1\n';
    assert.deepEqual(setEnvVariable(pem, 'S', secret), { text: `${pem}S=${secret}\n`, replaced: false });
    assert.equal(setEnvVariable('S="line one\r\nline two"\r\nA=1\r\n', 'S', secret).text, `S=${secret}\r\nA=1\r\n`);
    assert.equal(setEnvVariable("A=1\nS='never closed\nB=2\n", 'S', secret).text, `A=1\nS=${secret}\nB=2\n`, 'an unclosed quote is one line, as dotenv reads it');
  });

  it('single-quoted, backquoted and escaped values over several lines, a last line with no newline, comments after quotes', () => {
    assert.equal(setEnvVariable('A=1\nS=old', 'S', secret).text, `A=1\nS=${secret}`, 'the last line, unended, is replaced in place');
    for (const q of ["'", '`']) assert.equal(setEnvVariable(`S=${q}one\ntwo${q}\nA=1\n`, 'S', secret).text, `S=${secret}\nA=1\n`, q);
    assert.equal(setEnvVariable('S="a\\"\nb"\nA=1\n', 'S', secret).text, `S=${secret}\nA=1\n`, 'an escaped quote does not close the value');
    assert.equal(setEnvVariable("S='a\\'\nA=1\n", 'S', secret).text, `S=${secret}\nA=1\n`, 'in single quotes a backslash escapes nothing');
    assert.equal(setEnvVariable('S=`a # b` # keep\n', 'S', secret).text, `S=${secret} # keep\n`);
    assert.equal(setEnvVariable('S="a \\" # b" # keep\n', 'S', secret).text, `S=${secret} # keep\n`);
  });

  it("a single-quoted value ending in a backslash closes there: the lines after it stay assignments, its comment stays", () => {
    const text = "P='C:\\'\nS=old\nQ='x'\n";
    assert.deepEqual(setEnvVariable(text, 'S', secret), { text: `P='C:\\'\nS=${secret}\nQ='x'\n`, replaced: true }, 'S is replaced, not added a second time');
    assert.equal(setEnvVariable("P='C:\\' # where\n", 'P', secret).text, `P=${secret} # where\n`);
    assert.equal(setEnvVariable('S="a#" # note\n', 'S', secret).text, `S=${secret} # note\n`, 'a # inside the quotes is not the comment');
  });

  it('reads a UTF-8 file with its byte-order mark, and refuses one that is not UTF-8', () => {
    const bom = Buffer.from('\uFEFFS=old\nA=1\n', 'utf8');
    const written = Buffer.from(setEnvVariable(decodeEnvFile(bom), 'S', secret).text, 'utf8');
    assert.deepEqual(written, Buffer.from(`\uFEFFS=${secret}\nA=1\n`, 'utf8'), 'the mark stays, the first line is still replaced');
    assert.throws(() => decodeEnvFile(Buffer.from('A=caf\xe9\n', 'latin1')), /not UTF-8 text, so it was left as it was/);
  });
});
