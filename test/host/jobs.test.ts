/**
 * Batches, calls and fine-tuning in the real host: a batch created from a file and its results opened; an incoming call accepted,
 * hung up, rejected; a fine-tuning job followed on its page to succeeded, deployed through Resource Manager, chatted with.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import { DEFAULT_CONFIG } from '../../src/emulator/config';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { Batch, FineTuningJob } from '../../src/service/jobTypes';
import type { HostMessage as ChatHostMessage } from '../../src/webview/chat/protocol';
import type { FineTuningHostMessage } from '../../src/webview/fineTuning/protocol';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { BatchNode, JobGroupNode } from '../../src/vscode/tree/jobNodes';
import { clearConnections, closeEmulatedService, emulatedService, eventually, testIssuer, useTestCloud, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);
const line = (id: string, content: string) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content }] } });

describe('jobs: batches in the sidebar', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;
  const dir = mkdtempSync(join(tmpdir(), 'host-jobs-'));

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Jobs', { jobs: { stepMs: 100 } }));
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  it('a batch input file with problems is refused with its line numbers, and nothing is uploaded', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, `${line('a', 'one')}\n${line('a', 'two')}\n`);
    assert.equal(await exec('createBatch', { connectionId: conn.id, file: path, endpoint: '/v1/chat/completions' }), undefined);
    assert.deepEqual((await client.jobs.files.listPage()).data, []);
    writeFileSync(join(dir, 'notes.txt'), line('a', 'one'));
    assert.equal(await exec('createBatch', { connectionId: conn.id, file: join(dir, 'notes.txt'), endpoint: '/v1/chat/completions' }), undefined);
  });

  it('a batch the service refuses after the upload leaves no uploaded file behind', async () => {
    const path = join(dir, 'refused.jsonl');
    writeFileSync(path, `${line('a', 'one')}\n`);
    // The service takes at most 16 metadata keys: the upload succeeds, the batch is refused.
    const metadata = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    const before = (await client.jobs.files.listPage()).data.length;
    assert.equal(await exec('createBatch', { connectionId: conn.id, file: path, endpoint: '/v1/chat/completions', metadata }), undefined);
    assert.equal((await client.jobs.files.listPage()).data.length, before);
  });

  it('Create Batch from a file shows it under Batches, and Open Results shows its lines, one in full, exported as CSV', async () => {
    const api = await workbench();
    const path = join(dir, 'questions.jsonl');
    writeFileSync(path, ['alpha', 'beta', 'gamma'].map((q) => line(q, `say ${q}`)).join('\n'));
    const batch = await exec<Batch>('createBatch', { connectionId: conn.id, file: path, endpoint: '/v1/chat/completions' });
    assert.match(batch?.id ?? '', /^batch_/);
    const connNode = api.services.tree.connectionNode(conn.id)!;
    const groups = api.services.tree.getChildren(connNode).filter((n) => n.type === 'jobGroup') as JobGroupNode[];
    assert.deepEqual(groups.map((g) => g.kind), ['batches', 'fineTuning'], 'no Calls group while nothing listens');
    const row = await eventually(() => (api.services.tree.getChildren(groups[0]!) as BatchNode[]).find((n) => n.type === 'batch' && n.batch.id === batch!.id));
    assert.equal(api.services.tree.getTreeItem(row).label, 'questions.jsonl');
    await eventually(async () => ((await client.jobs.batches.retrieve(batch!.id)).status === 'completed' ? true : undefined));
    const doc = await exec<vscode.TextDocument>('openBatchResults', { connectionId: conn.id, batchId: batch!.id });
    assert.ok(doc);
    const text = doc.getText();
    assert.match(text, /3 rows/);
    for (const id of ['alpha', 'beta', 'gamma']) assert.match(text, new RegExp(`\\b${id}\\b`));
    type Full = { custom_id: string; request: { body: { messages: Array<{ content: string }> } }; response: { status_code: number } };
    const full = await exec<Full>('openBatchResultLine', { connectionId: conn.id, batchId: batch!.id, customId: 'beta' });
    assert.equal(full?.request.body.messages[0]!.content, 'say beta');
    assert.equal(full?.response.status_code, 200);
    const csv = join(dir, 'out.csv');
    assert.equal(await exec('exportBatchResults', { connectionId: conn.id, batchId: batch!.id, format: 'csv', path: csv }), csv);
    assert.equal(readFileSync(csv, 'utf8').trim().split('\n').length, 4);
    // Its usage is recorded once (source batch, no times), opened twice or not.
    const batchUsage = async () => (await api.services.usage.summarize({ filter: { connections: [conn.id], sources: ['batch'] } })).deployments;
    const used = await eventually(async () => (await batchUsage()).find((d) => d.deployment === 'gpt-4o-mini-batch' && d.windows.today.requests === 3));
    assert.ok(used.windows.today.promptTokens > 0 && used.windows.today.totalMs === undefined);
    await exec('openBatchResults', { connectionId: conn.id, batchId: batch!.id });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await batchUsage()).find((d) => d.deployment === 'gpt-4o-mini-batch')?.windows.today.requests, 3);
    // The sidebar follows: polling sees the batch completed.
    await api.services.jobs.refreshItem(conn, 'batches', batch!.id);
    const done = (api.services.tree.getChildren(groups[0]!) as BatchNode[]).find((n) => n.type === 'batch' && n.batch.id === batch!.id)!;
    assert.match(String(api.services.tree.getTreeItem(done).description), /^completed · 3\/3/);
    assert.equal(api.services.tree.getTreeItem(done).contextValue, 'batch.completed.results');
  });
});

describe('jobs: incoming calls through the listener', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Calls', { calls: { ringMs: 60_000 } }));
    await exec('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'calls', eventTypes: ['realtime.call.incoming'] } });
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  async function ring(): Promise<string> {
    const body = '{"from":"sip:+15550100@pstn.example","to":"sip:support@example.com"}';
    const res = await fetch(`${emu.url}/emulator/calls`, { method: 'POST', headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' }, body });
    return ((await res.json()) as { call_id: string }).call_id;
  }
  async function stateOnService(id: string): Promise<string | undefined> {
    const res = await fetch(`${emu.url}/emulator/calls`, { headers: { 'api-key': emu.apiKey } });
    return ((await res.json()) as { data: Array<{ call_id: string; state: string }> }).data.find((c) => c.call_id === id)?.state;
  }

  it('a ringing call appears under Calls with who is calling; accepted, then hung up', async () => {
    const api = await workbench();
    const id = await ring();
    const call = await eventually(() => api.services.jobs.call(conn.id, id));
    assert.equal(call.state, 'ringing');
    assert.deepEqual(call.from, { parsed: true, address: 'sip:+15550100@pstn.example', params: call.from?.parsed ? call.from.params : '' }, "the address, without the header's brackets");
    assert.match(call.from?.parsed ? call.from.params : '', /^;tag=/, 'the tag kept apart');
    assert.deepEqual(call.to, { parsed: true, address: 'sip:support@example.com', params: '' });
    const calls = (api.services.tree.getChildren(api.services.tree.connectionNode(conn.id)!) as JobGroupNode[]).find((n) => n.type === 'jobGroup' && n.kind === 'calls');
    assert.ok(calls, 'the Calls group shows while listening');
    assert.equal(await exec('acceptCall', { connectionId: conn.id, callId: id, deployment: 'gpt-realtime', instructions: 'Answer briefly.' }), true);
    assert.equal(await stateOnService(id), 'accepted');
    assert.equal(api.services.jobs.call(conn.id, id)?.state, 'accepted');
    assert.equal(await exec('hangUpCall', { connectionId: conn.id, callId: id }), true);
    assert.equal(await stateOnService(id), 'ended');
    assert.equal(await exec('hangUpCall', { connectionId: conn.id, callId: id }), undefined, 'an ended call cannot be hung up again');
  });

  it("the inspector shows a call delivery's SIP headers as a table, and hangs up the accepted call from there", async () => {
    const api = await workbench();
    const id = await ring();
    await eventually(() => api.services.jobs.call(conn.id, id));
    const record = await eventually(() => api.services.events.list().find((r) => r.eventType === 'realtime.call.incoming' && r.body.includes(id)));
    const view = api.services.inspector.open(record.id);
    assert.equal(view?.call?.callId, id);
    assert.equal(view?.call?.actionable, true);
    const names = view!.call!.headers.map((h) => h.name.toLowerCase());
    for (const n of ['from', 'to', 'call-id']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    assert.match(view!.call!.headers.find((h) => h.name.toLowerCase() === 'from')!.value, /sip:\+15550100@pstn\.example/);
    assert.equal(await exec('acceptCall', { connectionId: conn.id, callId: id, deployment: 'gpt-realtime', instructions: 'Answer briefly.' }), true);
    // As the page's Hang up button sends it: by delivery id only, the call id read from the stored delivery.
    await api.services.inspector.receive({ type: 'callAction', eventId: record.id, action: 'hangup', callId: 'rtc_not_this_one' });
    assert.equal(await stateOnService(id), 'ended');
    assert.equal(api.services.jobs.call(conn.id, id)?.state, 'ended');
  });

  it('a call rejected as busy is rejected on the service', async () => {
    const api = await workbench();
    const id = await ring();
    await eventually(() => api.services.jobs.call(conn.id, id));
    assert.equal(await exec('rejectCall', { connectionId: conn.id, callId: id, statusCode: 486 }), true);
    assert.equal(await stateOnService(id), 'rejected');
  });
});

describe('jobs: a fine-tuning job through to a deployed model', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let conn: ConnectionInfo;
  const dir = mkdtempSync(join(tmpdir(), 'host-ft-'));
  const config = () => vscode.workspace.getConfiguration('aoaiWorkbench');

  before(async () => {
    const issuer = testIssuer();
    const [sub] = DEFAULT_CONFIG.subscriptions;
    emu = await startEmulator({
      config: {
        jobs: { stepMs: 100 },
        entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile, grantedPrincipals: [issuer.oid] },
        subscriptions: [{ ...sub, tenantId: issuer.tenantId }],
      },
    });
    await clearConnections();
    await useTestCloud(issuer, emu.url);
    // Deploying goes through Resource Manager: a connection that knows its Azure account.
    const from = { tokenSource: 'default', subscriptionId: sub.subscriptionId, account: 'emulator-openai', label: 'Fine-tune' };
    const info = await exec<ConnectionInfo>('addConnectionFromAzure', from);
    if (!info) throw new Error('could not add the connection from Azure');
    conn = info;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await clearConnections();
    await config().update('cloud', undefined, vscode.ConfigurationTarget.Global);
    await config().update('customCloud', undefined, vscode.ConfigurationTarget.Global);
    await emu?.close();
  });

  it("the job's page follows it to succeeded with the loss of every step; Deploy makes a deployment that chats", async () => {
    const api = await workbench();
    const training = join(dir, 'train.jsonl');
    const example = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` }] });
    writeFileSync(training, Array.from({ length: 10 }, (_, i) => example(i)).join('\n'));
    const job = await exec<FineTuningJob>('createFineTuningJob', {
      connectionId: conn.id,
      model: 'gpt-4.1-mini-2025-04-14',
      trainingFile: training,
      validationFile: training,
      suffix: 'host',
      epochs: 2,
    });
    assert.match(job?.id ?? '', /^ftjob-/);

    const posted: FineTuningHostMessage[] = [];
    const sub = api.services.fineTuningPanels.onDidPost((e) => e.jobId === job!.id && posted.push(e.msg));
    try {
      await exec('openFineTuningJob', { connectionId: conn.id, jobId: job!.id });
      const page = api.services.fineTuningPanels.panel(conn.id, job!.id);
      assert.ok(page, 'the page is open');
      const csp = /Content-Security-Policy" content="([^"]+)"/.exec(page.html)?.[1] ?? '';
      assert.match(csp, /script-src 'nonce-[^']+'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(page.html, /data-page="fineTuning"/);
      assert.match(page.html, /dist\/webview\/pages\.js/);
      // While the job runs, the page is sent it again until it is final (the page polls while visible).
      const last = () => posted.filter((m): m is Extract<FineTuningHostMessage, { type: 'job' }> => m.type === 'job').at(-1)?.job;
      const done = await eventually(() => (last()?.final ? last() : undefined), 30_000);
      assert.equal(done.status, 'succeeded');
      assert.match(done.fineTunedModel ?? '', /^gpt-4\.1-mini-2025-04-14\.ft-[0-9a-f]+-host$/);
      assert.deepEqual(done.points.map((p) => p.step), Array.from({ length: 20 }, (_, i) => i + 1));
      assert.deepEqual(done.points.filter((p) => p.valid !== undefined).map((p) => p.step), [10, 20], 'the validation loss at each checkpoint');
      assert.ok(done.trainedTokens! > 0);
      assert.equal(done.checkpoints.length, 2);
      // A message that is not the protocol is dropped.
      await page.receive({ type: 'act', action: 'delete' });
    } finally {
      sub.dispose();
    }

    const deployment = await exec<{ name: string }>('deployFineTunedModel', { connectionId: conn.id, jobId: job!.id, name: 'ft-host', sku: 'standard', capacity: 1 });
    assert.equal(deployment?.name, 'ft-host');
    const node = api.services.tree.connectionNode(conn.id)!;
    const rows = await api.services.tree.settledChildren(node.deployments);
    assert.ok(rows.some((r) => r.type === 'deployment' && r.deployment.name === 'ft-host'), 'the new deployment is in the tree');

    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'ft-host' });
    const panel = api.services.chat.panel(res!.conversationId)!;
    const chat: ChatHostMessage[] = [];
    panel.onDidPost((m) => chat.push(m));
    await panel.receive({ type: 'send', text: 'hello fine-tuned model' });
    await panel.idle();
    const finished = chat.filter((m): m is Extract<ChatHostMessage, { type: 'turnFinished' }> => m.type === 'turnFinished');
    assert.equal(finished.length, 1);
    assert.equal(finished[0].turn.error, undefined);
    assert.match(finished[0].turn.content, /hello fine-tuned model/);
  });
});
