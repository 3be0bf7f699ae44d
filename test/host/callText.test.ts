/**
 * A caller writes the SIP From of an incoming call. Whatever it writes (a command link, codicons,
 * 10 KB), the notification shows its characters as text, with no link to click and no icon, and
 * the Calls row (which VS Code shows as text) keeps it on one line, cut; the address shown is the
 * one in the brackets, not a name's (issue 36).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { CallNode, JobGroupNode } from '../../src/vscode/tree/jobNodes';
import { closeEmulatedService, emitServiceEvent, emulatedService, eventually, execAsOurs, workbench } from './support';

// What VS Code turns into a link in a notification (running a command: link when clicked), and
// into an icon where codicons render; written from their documented syntax.
const LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+(?: (["']).+?\1)?\)/i;
const CODICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/;
/** What a person reads: the zero-width joiners that break the syntax are invisible. */
const seen = (s: string) => s.replaceAll('\u200D', '');

describe('calls: what a caller writes is shown as text', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('CallText', { calls: { ringMs: 60_000 } }));
    await execAsOurs('startListening', {
      connectionId: conn.id,
      endpoint: { mode: 'create', name: 'calls', eventTypes: ['realtime.call.incoming'] },
    });
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  async function ring(from: string): Promise<string> {
    const body = JSON.stringify({ from, to: 'sip:support@example.com' });
    const res = await fetch(`${emu.url}/emulator/calls`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { call_id: string }).call_id;
  }

  /** The call's notification as the extension showed it, and its row in the Calls group. */
  async function shown(callId: string, visible: string) {
    const api = await workbench();
    await eventually(() => api.services.jobs.call(conn.id, callId), 15_000);
    const notice = await eventually(() => api.services.jobNotices.shown.find((n) => seen(n.message).includes(visible)), 10_000);
    const group = (api.services.tree.getChildren(api.services.tree.connectionNode(conn.id)!) as JobGroupNode[]).find((n) => n.type === 'jobGroup' && n.kind === 'calls')!;
    const node = (api.services.tree.getChildren(group) as CallNode[]).find((n) => n.type === 'call' && n.call.id === callId)!;
    const row = api.services.tree.getTreeItem(node);
    return { message: notice.message, actions: notice.actions, label: String(typeof row.label === 'object' ? row.label.label : row.label), description: String(row.description) };
  }

  /** A notification renders links (a command: link runs when clicked): none may be left. */
  function assertText(where: string, text: string) {
    assert.doesNotMatch(text, LINK, `${where} offers no link: ${text}`);
    assert.doesNotMatch(text, CODICON, `${where} renders no codicon: ${text}`);
    assertRow(where, text);
  }
  /** A tree row's string label and description are shown as text by VS Code: one line, cut. */
  function assertRow(where: string, text: string) {
    assert.doesNotMatch(text, /[\r\n\u2028\u2029]/, `${where} is one line`);
    assert.ok(text.length < 400, `${where} is cut: ${text.length} characters`);
  }

  it('a From with a command link shows its characters, and no link is offered; nothing runs', async function () {
    this.timeout(60_000);
    const untitledBefore = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const from = 'sip:[Open Settings](command:workbench.action.files.newUntitledFile)@evil.example';
    const id = await ring(from);
    const { message, actions, label } = await shown(id, from);
    // The emulator's trunk writes it as <…>;tag=…: not a URI (it has a space), so shown whole and marked.
    const header = '<sip:\\[Open Settings\\]\\(command:workbench\\.action\\.files\\.newUntitledFile\\)@evil\\.example>;tag=\\w+ \\(unparsed\\)';
    assertText('the notification', message);
    assert.match(seen(message), new RegExp(`^Incoming call from ${header} to sip:support@example\\.com\\.$`));
    assert.deepEqual(actions, ['Accept…', 'Reject', 'Transfer…'], 'only our own buttons');
    assertRow('the row', label);
    assert.match(label, new RegExp(`^${header}$`), 'the row shows the header as typed');
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitledBefore, 'no untitled file was opened');
  });

  it('a From that is an Answer link to Create Webhook Endpoint… creates nothing and shows as text', async function () {
    this.timeout(60_000);
    const args = encodeURIComponent(JSON.stringify({ connectionId: conn.id, name: 'evil', url: 'https://evil.example/hook' }));
    const from = `[Answer](command:aoaiWorkbench.createWebhookEndpoint?${args})`;
    const id = await ring(from);
    const { message, label, description } = await shown(id, '[Answer](command:aoaiWorkbench.createWebhookEndpoint?');
    assertText('the notification', message);
    assertRow('the row', label);
    assert.ok(label.startsWith('<[Answer](command:aoaiWorkbench.createWebhookEndpoint?'), label);
    assert.match(description, /^ringing · to sip:support@example\.com · /);
    for await (const e of client.listWebhookEndpoints()) assert.ok(e.name !== 'evil' && !e.url.includes('evil.example'), `no endpoint aimed at the caller: ${e.name} ${e.url}`);
  });

  it('codicons in a From show as the characters typed, and the address is the one in the brackets', async function () {
    this.timeout(60_000);
    const id = await ring('"$(zap) <sip:ceo@corp.example>" <sip:attacker@evil.example>');
    const { message, label } = await shown(id, 'sip:attacker@evil.example');
    assertText('the notification', message);
    assert.equal(seen(message), 'Incoming call from sip:attacker@evil.example (name given: "$(zap) <sip:ceo@corp.example>") to sip:support@example.com.');
    assertRow('the row', label);
    assert.equal(label, 'sip:attacker@evil.example (name given: "$(zap) <sip:ceo@corp.example>")');
  });

  it('a 10 KB From is cut, on one line, in the notification and the row', async function () {
    this.timeout(60_000);
    const callId = `rtc_long_${Date.now()}`;
    const from = `"${'A\r\n$(zap) '.repeat(1024)}" <sip:long@evil.example>`;
    assert.ok(from.length > 10_000);
    await emitServiceEvent(emu, 'realtime.call.incoming', { call_id: callId, sip_headers: [{ name: 'From', value: from }, { name: 'To', value: '<sip:support@example.com>' }] });
    // The header is longer than the extension keeps of it (2,000 characters), so its end is gone: unparsed, shown cut.
    const { message, label } = await shown(callId, '"A $(zap) A $(zap) ');
    assertText('the notification', message);
    assertRow('the row', label);
    for (const [where, text] of [['the notification', message], ['the row', label]] as const) {
      assert.match(seen(text), /^(Incoming call from )?"A \$\(zap\) A \$\(zap\) .*… \(unparsed\)/, `${where} shows the characters: ${text.slice(0, 80)}`);
    }
  });
});
