/**
 * A burst of job endings in the real host: each notification VS Code shows is held until the user
 * dismisses it (a thousand cost the extension host over 100 MB), so a burst shows a few, then one
 * summary with Show.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { NOTICE_CAP, showAction, WINDOW_MS } from '../../src/vscode/jobs/jobNotices';
import { closeEmulatedService, emitServiceEvent, emulatedService, eventually, workbench } from './support';

const BATCHES = 12;

describe('jobs: a burst of batches that end at once', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Burst', { jobs: { stepMs: 50 } }));
    const ok = await execAsOurs('startListening', {
      connectionId: conn.id,
      endpoint: { mode: 'create', name: 'burst', eventTypes: ['batch.completed', 'batch.failed', 'batch.cancelled', 'batch.expired'] },
    });
    assert.ok(ok, 'the listener started');
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  it(`raises ${NOTICE_CAP} notifications, then one summary of the rest with Show`, async function () {
    this.timeout(120_000);
    const api = await workbench();
    const notices = api.services.jobNotices;
    // An earlier suite's job endings may still hold the window: start from a quiet one.
    await eventually(() => notices.quiet || undefined, WINDOW_MS + 5_000);
    notices.shown.length = 0;
    const file = join(mkdtempSync(join(tmpdir(), 'host-burst-')), 'one.jsonl');
    const line = { custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content: 'hi' }] } };
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    const input = await client.jobs.files.upload(file, { purpose: 'batch' });
    const ids = await Promise.all(Array.from({ length: BATCHES }, async () => (await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions' })).id));
    // Every batch's delivery verified, and each ending either shown or counted for the summary.
    await eventually(() => api.services.events.list().filter((r) => r.verdict === 'verified' && r.eventType?.startsWith('batch.')).length === BATCHES || undefined);
    await eventually(() => notices.shown.length + notices.held === BATCHES || undefined);
    const singles = notices.shown.map((n) => n.message);
    assert.equal(singles.length, NOTICE_CAP, `one by one: ${singles.join(' | ')}`);
    for (const m of singles) assert.ok(ids.some((id) => m === `Batch ${id} completed.`), m);
    assert.deepEqual(notices.shown[0]!.actions, ['Open Results']);
    // The summary comes when the burst's window ends, on its own.
    const summary = await eventually(() => notices.shown[NOTICE_CAP]);
    assert.match(summary.message, new RegExp(`^${BATCHES - NOTICE_CAP} more batches ended`));
    assert.deepEqual(summary.actions, [showAction()]);
    assert.equal(notices.shown.length, NOTICE_CAP + 1, 'nothing else was shown');
    assert.equal(notices.held, 0);
  });

  it('a delivery for a batch the service does not know (404) still says what happened, without Open Results', async function () {
    this.timeout(120_000);
    const api = await workbench();
    const notices = api.services.jobNotices;
    // An earlier suite's job endings may still hold the window: start from a quiet one.
    await eventually(() => notices.quiet || undefined, WINDOW_MS + 5_000);
    notices.shown.length = 0;
    await emitServiceEvent(emu, 'batch.completed', { id: 'batch_elsewhere' });
    const notice = await eventually(() => notices.shown.find((n) => n.message.startsWith('Batch batch_elsewhere')));
    assert.match(notice.message, /^Batch batch_elsewhere completed, but loading it from "Burst" failed: Not found \(404\)/);
    assert.deepEqual(notice.actions, [], 'nothing to open');
  });
});
