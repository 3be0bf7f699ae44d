import assert from 'node:assert/strict';
import { attachmentTokens, looksLikeText, messageContent } from '../../src/chat/attachments';
import { createConversation, requestMessages, toMarkdown } from '../../src/chat/conversation';
import type { Attachment } from '../../src/chat/protocol';

const selection: Attachment = { id: 'a1', kind: 'selection', name: 'app.ts (lines 3-4)', text: 'const x = 1;\nconst y = 2;', language: 'typescript' };
const image: Attachment = { id: 'a2', kind: 'image', name: 'dot.png', dataUrl: 'data:image/png;base64,AAAA' };

describe('chat attachments', () => {
  it('a message without attachments is sent as it is', () => {
    assert.equal(messageContent('hello', undefined), 'hello');
    assert.equal(messageContent('hello', []), 'hello');
  });

  it('text attachments follow the question as fenced blocks, named', () => {
    assert.equal(messageContent('what is y?', [selection]), 'what is y?\n\nSelection from app.ts (lines 3-4):\n```typescript\nconst x = 1;\nconst y = 2;\n```');
  });

  it('a fence is longer than any backtick run inside, so attached text cannot close it', () => {
    const file: Attachment = { id: 'a3', kind: 'file', name: 'README.md', text: 'see:\n````\ncode\n````\n' };
    const content = messageContent('summarise', [file]) as string;
    assert.ok(content.endsWith('File README.md:\n`````\nsee:\n````\ncode\n````\n`````'), content);
  });

  it('images go as image_url parts after the text', () => {
    assert.deepEqual(messageContent('describe', [selection, image]), [
      { type: 'text', text: messageContent('describe', [selection]) },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ]);
  });

  it('only user messages carry their attachments into the request', () => {
    const c = createConversation({ connectionId: 'c', connectionLabel: 'c', deployment: 'gpt-4o', params: { systemPrompt: '' } });
    c.turns.push({ id: 'u', role: 'user', content: 'look', createdAt: 1, attachments: [image] });
    assert.deepEqual(requestMessages(c), [{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: image.dataUrl } }] }]);
  });

  it('tells text from binary files', () => {
    assert.equal(looksLikeText(new TextEncoder().encode('plain text, ünïcode ✓')), true);
    assert.equal(looksLikeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])), false);
    assert.equal(looksLikeText(new Uint8Array([0xff, 0xfe, 0x41])), false, 'not UTF-8');
    const cut = new TextEncoder().encode(`${'a'.repeat(65535)}✓✓`);
    assert.equal(looksLikeText(cut), true, 'a character cut at 64 KB is still text');
  });

  it('estimates what attachments add to the prompt', () => {
    assert.equal(attachmentTokens([]), 0);
    assert.equal(attachmentTokens([image]), 765);
    assert.equal(attachmentTokens([selection]), Math.ceil(selection.text!.length / 4) + 10);
  });

  it('the Markdown export shows attached text and names attached images', () => {
    const c = createConversation({ connectionId: 'c', connectionLabel: 'c', deployment: 'gpt-4o', params: { systemPrompt: '' } });
    c.turns.push({ id: 'u', role: 'user', content: 'look', createdAt: 1, attachments: [selection, image] });
    assert.match(toMarkdown(c), /## You\n\nlook\n\nSelection from app\.ts \(lines 3-4\):\n```typescript\nconst x = 1;\nconst y = 2;\n```\n\n\(image: dot\.png\)\n/);
  });
});
