import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { escapeMarkdownText, eventTooltipMarkdown } from '../../src/vscode/webhooks/eventTooltip';
import type { DeliveryRecord } from '../../src/webhooks/records';

// The most permissive renderer: raw HTML on, bare URLs linked. What is escaped must still come out as text.
const render = (md: string) => new MarkdownIt({ html: true, linkify: true }).render(md);

const hostile = [
  '[click](command:aoaiWorkbench.clearEvents)',
  '<img src=x onerror=alert(1)>',
  '`code` and ``more``',
  'https://evil.example/x www.evil.example',
  '**bold** _em_ # head\n\n- item\n> quote',
  '![i](https://evil.example/i.png) &amp; \\[x]\\',
];

describe('event tooltip', () => {
  it('shows sender-controlled Markdown, HTML and links as the text they are', () => {
    for (const text of hostile) {
      const html = render(escapeMarkdownText(text));
      assert.doesNotMatch(html, /<(a|img|code|strong|em|h1|ul|blockquote)\b/, html);
      const shown = html.replace(/<\/?p>/g, '').trim().replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      assert.equal(shown, text.replace(/[\r\n]+/g, ' '));
    }
  });

  it('escapes every field of a delivery: type, reason, ids, forward target', () => {
    const [link, img, code] = hostile;
    const record: DeliveryRecord = {
      id: 'r1', receivedAt: 0, verdict: 'rejected', status: 400, body: '', headers: {},
      eventType: link, reason: img, eventId: code, webhookId: link, endpointId: img,
      forward: { url: `http://127.0.0.1:1/${link}`, error: img, durationMs: 3 },
    };
    const html = render(eventTooltipMarkdown(record, () => '<b>then</b>'));
    assert.doesNotMatch(html, /<(a|img|code|b)\b/, html);
    assert.match(html, /\[click\]\(command:aoaiWorkbench\.clearEvents\)/);
    assert.match(html, /<strong>/, 'the tooltip\'s own formatting stays');
  });
});
