/** The chat panel as a user meets it (issue 17): drafts kept after errors, editing, names, context from the editor. */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { ChatPanel } from '../../src/vscode/chat/chatPanel';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('chat panel UX', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('UX emulator', {
      streamTokenDelayMs: 1,
      deployments: [
        { name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 50, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        { name: 'text-only', model: 'gpt-35-turbo', version: '0125', sku: 'Standard', capacity: 10, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
      ],
    }));
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  async function open(deployment = 'gpt-4o'): Promise<{ panel: ChatPanel; posted: HostMessage[] }> {
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment });
    assert.ok(res?.conversationId);
    const panel = (await workbench()).services.chat.panel(res.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    return { panel, posted };
  }

  it('gives a failed message back to the box, and sending it again replaces the failed exchange', async () => {
    const { panel, posted } = await open('no-such-deployment');
    await panel.receive({ type: 'send', text: 'are you there?' });
    await panel.idle();
    const [asked, failed] = panel.conversation.turns;
    assert.ok(failed.error);
    assert.deepEqual(posted.find((m) => m.type === 'restoreDraft'), { type: 'restoreDraft', text: 'are you there?', turnId: asked.id });

    await panel.receive({ type: 'setDeployment', connectionId: conn.id, deployment: 'gpt-4o' });
    await panel.receive({ type: 'editFrom', turnId: asked.id, text: 'are you there now?' });
    await panel.idle();
    assert.deepEqual(panel.conversation.turns.map((t) => t.content.split('\n')[0]), ['are you there now?', 'You said: are you there now?']);
    assert.equal(posted.filter((m) => m.type === 'restoreDraft').length, 1, 'a reply that worked gives nothing back');
  });

  it('a content-filter refusal is marked as one, with the message given back to rephrase', async () => {
    const { panel, posted } = await open();
    await panel.receive({ type: 'send', text: '/filter' });
    await panel.idle();
    const reply = panel.conversation.turns.at(-1)!;
    assert.equal(reply.error?.code, 'content_filter');
    assert.ok(posted.some((m) => m.type === 'restoreDraft' && m.text === '/filter'));
  });

  it('edits an earlier message: the conversation continues from there', async () => {
    const { panel } = await open();
    for (const text of ['first', 'second', 'third']) {
      await panel.receive({ type: 'send', text });
      await panel.idle();
    }
    const second = panel.conversation.turns[2];
    assert.equal(second.content, 'second');
    await panel.receive({ type: 'editFrom', turnId: second.id, text: 'second, edited' });
    await panel.idle();
    assert.deepEqual(panel.conversation.turns.map((t) => t.content.split('\n')[0]), ['first', 'You said: first', 'second, edited', 'You said: second, edited']);
    const saved = await (await workbench()).services.chat.conversations.load(panel.conversation.id);
    assert.equal(saved?.turns.length, 4);
  });

  it('the title bar\'s Export and Clear act on the active chat panel', async () => {
    const { panel } = await open();
    await panel.receive({ type: 'send', text: 'keep this' });
    await panel.idle();
    panel.panel.reveal();
    const md = await exec<string>('exportChatMarkdown');
    assert.match(md ?? '', /## You\n\nkeep this/);
    panel.panel.reveal();
    assert.equal(await exec('clearChat', { conversationId: panel.conversation.id }), true);
    assert.deepEqual(panel.conversation.turns, []);
    const saved = await (await workbench()).services.chat.conversations.load(panel.conversation.id);
    assert.deepEqual(saved?.turns, []);
  });

  it('copies a reply as its Markdown source; a stopped reply keeps an estimated token count', async () => {
    const { panel, posted } = await open();
    await panel.receive({ type: 'send', text: '/markdown' });
    await panel.idle();
    const reply = panel.conversation.turns.at(-1)!;
    await panel.receive({ type: 'copyTurn', turnId: reply.id });
    assert.equal(await vscode.env.clipboard.readText(), reply.content);
    assert.match(reply.content, /^# /m, 'the Markdown source, not the rendered text');

    // Slow enough that Stop comes before the end on any machine; Stop once part of it arrived.
    emu.config.streamTokenDelayMs = 50;
    const earlier = posted.length;
    const sending = panel.receive({ type: 'send', text: '/long 3000' }).finally(() => (emu.config.streamTokenDelayMs = 1));
    await eventually(() => posted.slice(earlier).filter((m) => m.type === 'delta').length >= 3, undefined, 'three pieces of the long reply');
    await panel.receive({ type: 'stop' });
    await sending;
    await panel.idle();
    const stopped = panel.conversation.turns.at(-1)!;
    assert.equal(stopped.stopped, true);
    assert.equal(stopped.usageEstimated, true);
    assert.ok(stopped.usage!.completion_tokens > 0 && stopped.usage!.prompt_tokens > 0);
  });

  it('Ask About Selection attaches the editor\'s selection to the chat; the model gets it with the question', async () => {
    const { panel, posted } = await open();
    const doc = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const a = 1;\nfunction secretSauce() { return a * 42; }\nconst b = 2;\n' });
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
    editor.selection = new vscode.Selection(1, 0, 1, doc.lineAt(1).text.length);
    const res = await exec<{ conversationId: string; attached: string }>('askAboutSelection');
    assert.equal(res?.conversationId, panel.conversation.id);
    assert.match(res!.attached, /\(line 2\)$/);
    const chips = posted.filter((m) => m.type === 'attachments').at(-1);
    assert.equal(chips?.type === 'attachments' && chips.items.length, 1);

    await panel.receive({ type: 'send', text: 'what does this do?' });
    await panel.idle();
    const [asked, reply] = panel.conversation.turns.slice(-2);
    assert.equal(asked.attachments?.[0].text, 'function secretSauce() { return a * 42; }');
    assert.match(reply.content, /You said: what does this do\?[\s\S]*Selection from .*\(line 2\):\n```typescript\nfunction secretSauce\(\)/);
    const after = posted.filter((m) => m.type === 'attachments').at(-1);
    assert.deepEqual(after?.type === 'attachments' && after.items, [], 'sent: the composer has no chips left');
  });

  it('attaches an image for a model that takes images, refuses one for a model that does not, and chips can be removed', async () => {
    const dir = vscode.Uri.file(mkdtempSync(join(tmpdir(), 'chat-ux-')));
    const png = vscode.Uri.joinPath(dir, 'dot.png');
    await vscode.workspace.fs.writeFile(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));
    const { panel, posted } = await open();
    await panel.attachUri(png, 'image');
    let chips = posted.filter((m) => m.type === 'attachments').at(-1);
    assert.ok(chips?.type === 'attachments' && chips.imageInput && chips.items[0].name === 'dot.png');
    await panel.receive({ type: 'send', text: 'describe it' });
    await panel.idle();
    const reply = panel.conversation.turns.at(-1)!;
    assert.match(reply.content, /You said: describe it/);
    // The service counts an image at high detail as 765 prompt tokens: the picture was sent.
    assert.ok(reply.usage!.prompt_tokens > 765, `prompt tokens ${reply.usage!.prompt_tokens}`);

    const textOnly = await open('text-only');
    await assert.rejects(textOnly.panel.attachUri(png, 'image'), /gpt-35-turbo does not take images/);
    const notes = vscode.Uri.joinPath(dir, 'notes.md');
    await vscode.workspace.fs.writeFile(notes, Buffer.from('# Notes\nremember the milk\n'));
    await textOnly.panel.attachUri(notes, 'file');
    chips = textOnly.posted.filter((m) => m.type === 'attachments').at(-1);
    assert.ok(chips?.type === 'attachments' && !chips.imageInput && chips.items.length === 1);
    await textOnly.panel.receive({ type: 'removeAttachment', id: chips.items[0].id });
    chips = textOnly.posted.filter((m) => m.type === 'attachments').at(-1);
    assert.deepEqual(chips?.type === 'attachments' && chips.items, []);
  });
});
