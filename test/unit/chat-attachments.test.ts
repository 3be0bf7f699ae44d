import assert from 'node:assert/strict';
import { attachmentTokens, looksLikeText, messageContent } from '../../src/chat/attachments';
import { createConversation, requestMessages, toMarkdown } from '../../src/chat/conversation';
import type { Attachment } from '../../src/chat/model';

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

  it('each attachment is sent as its kind says: a file without text and an image without data add nothing', () => {
    const emptyFile: Attachment = { id: 'f', kind: 'file', name: 'gone.txt' };
    const lostImage: Attachment = { id: 'i', kind: 'image', name: 'lost.png' };
    assert.equal(messageContent('q', [emptyFile, lostImage]), 'q', 'no empty block, no image part without a URL (the service would refuse it)');
    const odd: Attachment[] = [
      { id: 'i2', kind: 'image', name: 'pic.png', text: 'alt text', dataUrl: 'data:image/png;base64,BBBB' },
      { id: 'f2', kind: 'file', name: 'notes.txt', text: 'notes', dataUrl: 'data:text/plain;base64,AAAA' },
    ];
    assert.deepEqual(messageContent('q', odd), [
      { type: 'text', text: 'q\n\nFile notes.txt:\n```\nnotes\n```' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,BBBB' } },
    ]);
    assert.equal(attachmentTokens([emptyFile]), 10, 'a file without text counts its framing only');
  });

  it('binary or text: a NUL byte anywhere in the first 8 KB, bad bytes before the 64 KB mark, a file ending inside a character', () => {
    const enc = new TextEncoder();
    assert.equal(looksLikeText(enc.encode('abc\0def')), false, 'NUL is valid UTF-8 but no text file has it');
    const badInside = new Uint8Array(70_000).fill(0x61);
    badInside[100] = 0xff;
    assert.equal(looksLikeText(badInside), false, 'invalid UTF-8 well before the cut');
    const endsCut = new Uint8Array(65_536).fill(0x61);
    endsCut[65_535] = 0xc3;
    assert.equal(looksLikeText(endsCut), false, 'the file itself ends inside a character');
    const fourBytes = enc.encode(`${'a'.repeat(65_533)}😀 and more`);
    assert.equal(looksLikeText(fourBytes), true, 'a four-byte character cut after three of its bytes');
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
