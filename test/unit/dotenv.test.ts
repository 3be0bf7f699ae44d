import assert from 'node:assert/strict';
import { setEnvVariable, validEnvName } from '../../src/webhooks/dotenv';

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
});
