/** Batches and calls in the real host: a batch created from a file and its results opened; an incoming call accepted, hung up, rejected. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { Batch } from '../../src/service/jobTypes';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { BatchNode, JobGroupNode } from '../../src/vscode/tree/jobNodes';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(`aoaiWorkbench.${cmd}`, ...args);
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
    await eventually(async () => ((await client.jobs.batches.retrieve(batch!.id)).status === 'completed' ? true : undefined), 15_000);
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
    const call = await eventually(() => api.services.jobs.call(conn.id, id), 10_000);
    assert.equal(call.state, 'ringing');
    assert.equal(call.from, 'sip:+15550100@pstn.example', 'the address, without the header\'s brackets and tag');
    assert.equal(call.to, 'sip:support@example.com');
    const calls = (api.services.tree.getChildren(api.services.tree.connectionNode(conn.id)!) as JobGroupNode[]).find((n) => n.type === 'jobGroup' && n.kind === 'calls');
    assert.ok(calls, 'the Calls group shows while listening');
    assert.equal(await exec('acceptCall', { connectionId: conn.id, callId: id, deployment: 'gpt-realtime', instructions: 'Answer briefly.' }), true);
    assert.equal(await stateOnService(id), 'accepted');
    assert.equal(api.services.jobs.call(conn.id, id)?.state, 'accepted');
    assert.equal(await exec('hangUpCall', { connectionId: conn.id, callId: id }), true);
    assert.equal(await stateOnService(id), 'ended');
    assert.equal(await exec('hangUpCall', { connectionId: conn.id, callId: id }), undefined, 'an ended call cannot be hung up again');
  });

  it('a call rejected as busy is rejected on the service', async () => {
    const api = await workbench();
    const id = await ring();
    await eventually(() => api.services.jobs.call(conn.id, id), 10_000);
    assert.equal(await exec('rejectCall', { connectionId: conn.id, callId: id, statusCode: 486 }), true);
    assert.equal(await stateOnService(id), 'rejected');
  });
});
