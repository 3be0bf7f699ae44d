/**
 * Every message of the chat page's protocol, each side: a well-formed one passes unchanged, and
 * each way of getting one field wrong drops the whole message (what a confused or hostile page,
 * or a stale extension, would send).
 */
import assert from 'node:assert/strict';
import { parseParams } from '../../src/chat/model';
import { parseHostMessage, parseViewMessage } from '../../src/webview/chat/protocol';

const turn = { id: 't1', role: 'assistant', content: 'hello', createdAt: 1 };
const conversation = { id: 'c1', title: 'Chat', deployment: 'gpt-4o', connectionId: 'k', connectionLabel: 'K', params: { systemPrompt: '', route: 'v1' }, turns: [{ ...turn, role: 'user' }, turn] };
const deployments = [{ connectionId: 'k', connectionLabel: 'K', deployment: 'gpt-4o' }];

/** The message, and for each listed change, the same message with that change: all must be refused. */
function table(parse: (v: unknown) => unknown, ok: Record<string, unknown>, broken: Array<Record<string, unknown>>, expected: unknown = ok) {
  assert.deepEqual(parse(ok), expected, JSON.stringify(ok));
  for (const change of broken) {
    const bad = { ...ok, ...change };
    assert.equal(parse(bad), undefined, JSON.stringify(change));
  }
}

describe('chat protocol, webview → extension', () => {
  it('takes the bare commands', () => {
    for (const type of ['ready', 'stop', 'regenerate']) assert.deepEqual(parseViewMessage({ type, extra: 1 }), { type });
    // The page never sent these: the extension takes none of them (Clear and Export are commands).
    for (const msg of [{ type: 'clear' }, { type: 'editLast', text: 'hi' }, { type: 'export', format: 'json' }]) assert.equal(parseViewMessage(msg), undefined, msg.type);
  });

  it('checks each field of each message', () => {
    for (const type of ['send']) table(parseViewMessage, { type, text: 'hi' }, [{ text: '' }, { text: ' \n' }, { text: 3 }, { text: 'x'.repeat(1_000_001) }]);
    for (const type of ['copyCode', 'insertCode']) table(parseViewMessage, { type, code: 'let a' }, [{ code: 1 }, { code: undefined }, { code: 'x'.repeat(1_000_001) }]);
    assert.deepEqual(parseViewMessage({ type: 'copyCode', code: '' }), { type: 'copyCode', code: '' }, 'empty code is still code');
    table(parseViewMessage, { type: 'openLink', href: 'https://x' }, [{ href: 1 }, { href: `https://x/${'a'.repeat(8192)}` }]);
    table(
      parseViewMessage,
      { type: 'setDeployment', connectionId: 'k', deployment: 'gpt-4o' },
      [{ connectionId: 1 }, { connectionId: 'x'.repeat(201) }, { deployment: '' }, { deployment: 'x'.repeat(201) }, { deployment: 2 }],
    );
    for (const v of [null, [], 'send', 5, { text: 'x' }, { type: 1 }, { type: 'setParams', params: 'x' }]) assert.equal(parseViewMessage(v), undefined, JSON.stringify(v));
  });

  it('the composer and turn actions: copy, attach, remove an attachment, edit from a turn', () => {
    table(parseViewMessage, { type: 'copyTurn', turnId: 'x'.repeat(200) }, [{ turnId: 'x'.repeat(201) }, { turnId: 7 }]);
    table(parseViewMessage, { type: 'showTrace', turnId: 't1' }, [{ turnId: 'x'.repeat(201) }, { turnId: null }]);
    for (const kind of ['selection', 'file', 'image']) table(parseViewMessage, { type: 'attach', kind }, [{ kind: 'folder' }, { kind: undefined }]);
    table(parseViewMessage, { type: 'removeAttachment', id: 'a1' }, [{ id: 'x'.repeat(201) }, { id: null }]);
    table(parseViewMessage, { type: 'editFrom', turnId: 't1', text: 'new wording' }, [{ text: ' \n ' }, { text: '' }, { text: 5 }, { turnId: 'x'.repeat(201) }, { turnId: undefined }]);
  });
});

describe('chat parameters from the page', () => {
  it('keeps valid values (maxTokens rounded) and drops unknown keys', () => {
    assert.deepEqual(parseParams({ systemPrompt: 'Be brief.', temperature: 2, topP: 0, maxTokens: 99.6, route: 'deployment', apiVersion: '2024-10-21', x: 1 }), {
      systemPrompt: 'Be brief.', temperature: 2, topP: 0, maxTokens: 100, route: 'deployment', apiVersion: '2024-10-21',
    });
    assert.deepEqual(parseParams({}), {});
    assert.deepEqual(parseParams({ temperature: null, topP: null, maxTokens: null }), { temperature: undefined, topP: undefined, maxTokens: undefined }, 'null clears');
    assert.deepEqual(parseParams({ apiVersion: '' }), { apiVersion: undefined }, 'an empty api-version means the default');
    assert.deepEqual(parseParams({ route: 'v1', temperature: 0, topP: 1, maxTokens: 1 }), { route: 'v1', temperature: 0, topP: 1, maxTokens: 1 }, 'the bounds themselves');
  });

  it('refuses anything out of range or of the wrong kind', () => {
    for (const bad of [
      { systemPrompt: 1 }, { systemPrompt: 'x'.repeat(100_001) },
      { temperature: -0.1 }, { temperature: 2.1 }, { temperature: '1' }, { temperature: Number.NaN }, { temperature: Infinity },
      { topP: -0.01 }, { topP: 1.01 }, { maxTokens: 0 }, { maxTokens: 1_000_001 },
      { route: 'v2' }, { route: null }, { apiVersion: 'a/b' }, { apiVersion: '2024 10' }, { apiVersion: 'x'.repeat(65) }, { apiVersion: 5 },
    ]) assert.equal(parseParams(bad), undefined, JSON.stringify(bad));
    for (const v of [null, [], 'x', 3]) assert.equal(parseParams(v), undefined);
  });
});

describe('chat protocol, extension → webview', () => {
  it('checks conversations, turns and deployments deeply', () => {
    table(parseHostMessage, { type: 'init', conversation, deployments, busy: true }, [
      { conversation: { ...conversation, id: 5 } }, { conversation: { ...conversation, id: 'x'.repeat(201) } }, { conversation: { ...conversation, title: 'x'.repeat(1001) } },
      { conversation: { ...conversation, deployment: 'x'.repeat(201) } }, { conversation: { ...conversation, params: [] } }, { conversation: { ...conversation, params: null } },
      { conversation: { ...conversation, turns: {} } }, { conversation: { ...conversation, turns: [turn, { ...turn, role: 'system' }] } },
      { deployments: {} }, { deployments: [...deployments, { connectionId: 'k' }] }, { deployments: [{ deployment: 'd' }] }, { deployments: [null] },
      { deployments: [{ connectionId: 'x'.repeat(201), deployment: 'd' }] },
    ]);
    assert.equal((parseHostMessage({ type: 'init', conversation, deployments, busy: 'yes' }) as { busy: boolean }).busy, false, 'busy only when true');
    table(parseHostMessage, { type: 'conversation', conversation }, [{ conversation: { ...conversation, turns: [{ ...turn, createdAt: '1' }] } }, { conversation: 'x' }]);
    table(parseHostMessage, { type: 'deployments', deployments }, [{ deployments: 'x' }, { deployments: [{ connectionId: 1, deployment: 'd' }] }]);
    for (const type of ['turnStarted', 'turnFinished']) {
      table(parseHostMessage, { type, turn }, [
        { turn: { ...turn, id: 1 } },
        { turn: { ...turn, id: 'x'.repeat(201) } },
        { turn: { ...turn, role: 'tool' } },
        { turn: { ...turn, content: null } },
        { turn: { ...turn, createdAt: Number.NaN } },
        { turn: [] },
      ]);
      assert.deepEqual(parseHostMessage({ type, turn: { ...turn, role: 'user' } }), { type, turn: { ...turn, role: 'user' } });
    }
  });

  it("checks a turn's optional fields: API, reasoning, response id, notes, background status", () => {
    for (const api of ['chat', 'responses']) assert.ok(parseHostMessage({ type: 'turnFinished', turn: { ...turn, api } }), api);
    const notes = Array.from({ length: 20 }, () => 'n'.repeat(1000));
    const full = { ...turn, api: 'responses', reasoningSummary: 'thought', responseId: 'r'.repeat(200), notes, backgroundStatus: 'queued' };
    table(parseHostMessage, { type: 'turnFinished', turn: full }, [
      { turn: { ...full, api: 'completions' } }, { turn: { ...full, reasoningSummary: 1 } }, { turn: { ...full, responseId: 'r'.repeat(201) } },
      { turn: { ...full, notes: [...notes, 'one more'] } }, { turn: { ...full, notes: ['ok', 'n'.repeat(1001)] } }, { turn: { ...full, notes: 'note' } },
      { turn: { ...full, backgroundStatus: 'sleeping' } },
    ]);
  });

  it("checks the composer's attachment chips", () => {
    const items = [{ id: 'a1', kind: 'selection', name: 'app.ts (lines 1-2)', tokens: 12 }, { id: 'a2', kind: 'file', name: 'n'.repeat(1000) }, { id: 'a3', kind: 'image', name: 'dot.png' }];
    table(parseHostMessage, { type: 'attachments', items, imageInput: true }, [
      { items: 'a1' }, { items: [...items, null] }, { items: [{ ...items[0], id: 'x'.repeat(201) }] }, { items: [{ ...items[0], id: 3 }] },
      { items: [{ ...items[0], name: 'n'.repeat(1001) }] }, { items: [{ ...items[1], kind: 'folder' }] }, { items: [items[0], { ...items[2], kind: undefined }] },
    ]);
    assert.deepEqual(parseHostMessage({ type: 'attachments', items: [], imageInput: 'yes' }), { type: 'attachments', items: [], imageInput: false }, 'images only when true');
  });

  it('checks the streaming messages', () => {
    table(parseHostMessage, { type: 'delta', turnId: 't', text: '' }, [{ turnId: 1 }, { turnId: 'x'.repeat(201) }, { text: null }]);
    table(parseHostMessage, { type: 'retryCountdown', turnId: 't', seconds: 3 }, [{ seconds: '3' }, { seconds: Infinity }, { turnId: 'x'.repeat(201) }]);
    table(parseHostMessage, { type: 'restoreDraft', text: 'my message' }, [{ text: 1 }, { text: 'x'.repeat(1_000_001) }]);
    for (const v of [null, [], { type: 'eval' }, { type: 2 }]) assert.equal(parseHostMessage(v), undefined);
  });
});
