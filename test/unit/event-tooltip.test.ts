import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { escapeMarkdownText, eventRowText, eventTooltipMarkdown } from '../../src/vscode/webhooks/eventTooltip';
import type { DeliveryRecord } from '../../src/webhooks/store/records';

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

  it('a row says what arrived: a summary\'s count and sender in the row itself, duplicates beside the verdict', () => {
    const base: DeliveryRecord = { id: 'r', receivedAt: 0, verdict: 'verified', status: 200, body: '{}', headers: {}, eventType: 'response.completed' };
    assert.deepEqual(eventRowText(base, undefined, '10:00'), { label: 'response.completed', description: 'verified · 10:00' });
    assert.deepEqual(eventRowText({ ...base, duplicates: { count: 1, lastAt: 5 } }, '202', '10:00'), { label: 'response.completed', description: 'verified (+1 duplicate) → 202 · 10:00' });
    assert.equal(eventRowText({ ...base, duplicates: { count: 1200, lastAt: 5 } }, undefined, 't').description, 'verified (+1,200 duplicates) · t');
    const flood: DeliveryRecord = {
      ...base,
      eventType: undefined,
      verdict: 'rejected',
      status: 400,
      count: 281,
      summary: '281 rejected deliveries from 127.0.0.1',
      reason: '281 rejected deliveries from 127.0.0.1 (281) within 10 s: counted, not kept one by one.',
    };
    assert.deepEqual(eventRowText(flood, undefined, '10:00'), { label: '281 rejected deliveries from 127.0.0.1', description: 'rejected · 10:00' });
    assert.equal(eventRowText({ ...flood, summary: undefined, count: 1500 }, undefined, 't').label, '1,500 rejected deliveries', 'a summary stored before rows said more');
    const dup: DeliveryRecord = { ...base, eventType: undefined, verdict: 'duplicate', body: '', count: 1, webhookId: 'msg_1' };
    assert.deepEqual(eventRowText(dup, undefined, 't'), { label: '1 duplicate delivery of msg_1', description: 'duplicate · t' });
    assert.equal(eventRowText({ ...dup, count: 3, webhookId: undefined }, undefined, 't').label, '3 duplicate deliveries of a delivery no longer stored');
    assert.equal(eventRowText({ ...base, eventType: undefined, verdict: 'rejected' }, undefined, 't').label, 'Rejected delivery');
    assert.equal(eventRowText({ ...base, eventType: undefined }, undefined, 't').label, 'Delivery');
    const md = eventTooltipMarkdown({ ...base, duplicates: { count: 2, lastAt: 7 } }, (ms) => `at ${ms}`);
    assert.match(md, /Arrived again 2 time\(s\), the latest at at 7: acknowledged, not processed again\./);
  });
});
