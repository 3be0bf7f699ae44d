import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { partyLine, partyMarkdown } from '../../src/vscode/jobs/callParty';
import { cutText, LINE_MAX, markdownLine, plainLine, rowText } from '../../src/vscode/plainText';
import { parseSipParty, type SipParty } from '../../src/webhooks/inspect/sipParty';

// What the workbench turns into a link in a notification or an input box's message, and into an
// icon in a quick pick or an input box's message (written from their documented syntax).
const LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+(?: (["']).+?\1)?\)/i;
const CODICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/;
// What the user reads: the zero-width joiners are invisible.
const seen = (s: string) => s.replaceAll('\u200D', '');

const hostile = [
  'sip:[Open Settings](command:workbench.action.files.newUntitledFile)@evil.example',
  '[Answer](command:aoaiWorkbench.createWebhookEndpoint?%7B%22url%22%3A%22https%3A%2F%2Fevil.example%22%7D)',
  '$(zap) $(loading~spin) \\$(zap)',
  '[a](https://evil.example "title") [b](file:///etc/passwd)',
  '<img src=x onerror=alert(1)> **bold** `code`',
];

describe('outside text as plain text (plainText.ts)', () => {
  it('keeps every character a caller sent, leaving no link and no codicon', () => {
    for (const text of hostile) {
      const line = plainLine(text);
      assert.doesNotMatch(line, LINK, line);
      assert.doesNotMatch(line, CODICON, line);
      assert.equal(seen(line), text, 'the same characters, as typed');
      assert.equal(plainLine(line), line, 'twice is once: a message made of such values can go through it again');
    }
  });

  it('leaves no link when two values meet in one message, whatever the text between them', () => {
    for (const [a, b] of [
      ['[Answer]', '(command:x)'],
      ['[Answer](', 'command:x)'],
      ['$', '(zap)'],
    ]) {
      const message = `${plainLine(a!)}${plainLine(b!)}`;
      assert.doesNotMatch(message, LINK, message);
      assert.doesNotMatch(message, CODICON, message);
    }
    // Our own text around a value: "[see]" before one that starts with "(", "$" before "(zap)".
    for (const message of [`[see]${plainLine('(command:x)')}`, `$${plainLine('(zap)')}`, `${plainLine('[Answer]')}(command:x)`]) {
      assert.doesNotMatch(message, LINK, message);
      assert.doesNotMatch(message, CODICON, message);
    }
    assert.equal(plainLine('Not found (404) on host (request id 1)'), 'Not found (404) on host (request id 1)', 'a "(" of no link stays as it is');
  });

  it('puts a value on one line, shows hidden characters, and cuts a long one with "…"', () => {
    assert.equal(plainLine('a\r\nb\nc\rd\u2028e\u2029f\tg'), 'a b c d e f g');
    assert.equal(plainLine('left\u202Ethgir\u0000'), 'left\uFFFDthgir\uFFFD', 'a bidi override cannot reorder what follows');
    const long = plainLine('x'.repeat(10_240));
    assert.equal(long.length, LINE_MAX);
    assert.ok(long.endsWith('…'));
    assert.equal(plainLine('y'.repeat(10_240), 50), `${'y'.repeat(49)}…`);
    assert.equal(cutText(`a${'😀'.repeat(5)}`, 3), 'a…', 'never half a surrogate pair');
  });

  it("keeps a tree row's text as typed, on one line and cut (VS Code shows a string label as text)", () => {
    assert.equal(rowText(hostile[0]!), hostile[0]);
    assert.equal(rowText('a\nb\u202E'), 'a b\uFFFD');
    assert.equal(rowText('z'.repeat(10_240)).length, LINE_MAX);
  });

  it('escapes a value for a Markdown tooltip: it renders as the text it is', () => {
    const md = new MarkdownIt({ html: true, linkify: true });
    for (const text of [...hostile, 'https://evil.example/x www.evil.example ![i](https://evil.example/i.png)', 'x@evil.example &amp; &#x41; ~~s~~', 'a, b; c? 50%']) {
      const html = md.renderInline(markdownLine(text));
      assert.doesNotMatch(html, /<(a|img|code|strong|em)\b/, html);
      const shown = html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      assert.equal(shown, text);
    }
  });
});

describe('a call party as the user reads it (callParty.ts)', () => {
  const party = (v: string) => parseSipParty(v) as SipParty;

  it('shows the address as the address and the display name as the name the caller gave', () => {
    assert.equal(partyLine(party('"<sip:ceo@corp.example>" <sip:attacker@evil.example>')), 'sip:attacker@evil.example (name given: "<sip:ceo@corp.example>")');
    assert.equal(seen(partyLine(party('"<img src=x onerror=alert(1)>" <sip:+15550100@pstn.example>;tag=a1'))), 'sip:+15550100@pstn.example (name given: "<img src=x onerror=alert(1)>")');
    assert.equal(partyLine(party('<sip:+15550100@pstn.example>;tag=9f2c')), 'sip:+15550100@pstn.example', 'no name: the address alone');
  });

  it('shows a header that does not parse whole, as text, marked unparsed', () => {
    const raw = hostile[0]!;
    const line = partyLine(party(raw));
    assert.equal(seen(line), `${raw} (unparsed)`);
    assert.doesNotMatch(line, LINK);
    const md = new MarkdownIt({ html: true, linkify: true }).renderInline(partyMarkdown(party(`<${raw}>`)));
    assert.doesNotMatch(md, /<a\b/, md);
  });
});
