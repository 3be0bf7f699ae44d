/**
 * Files the workbench writes from an outside id (a batch id from the service or from a command's
 * arguments) stay inside its storage folder: the id is checked where the path is made.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadInput } from '../../src/jobs/batchResults';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { storedIdPath } from '../../src/storage/storedId';
import { closeAll, emulatorClient } from '../support/emulatorClient';

describe('files written from a service id stay in the storage folder', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let dir: string;

  before(async () => {
    ({ emu, client } = await emulatorClient());
    dir = await mkdtemp(join(tmpdir(), 'stored-ids-'));
  });
  after(async () => {
    await closeAll(client, emu);
    await rm(dir, { recursive: true, force: true });
  });

  it('a batch id of ../../x for the input file writes nothing outside the storage folder, and says why', async () => {
    const line = { custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content: 'hi' }] } };
    await writeFile(join(dir, 'in.jsonl'), `${JSON.stringify(line)}\n`);
    const input = await client.jobs.files.upload(join(dir, 'in.jsonl'), { purpose: 'batch' });
    // storage is <dir>/a/b/storage: ../../x is <dir>/a/x, which exists, so a write there would land.
    const storage = join(dir, 'a', 'b', 'storage');
    const outside = join(dir, 'a', 'x');
    await mkdir(storage, { recursive: true });
    await mkdir(outside, { recursive: true });
    for (const id of ['../../x', '..', 'batch_1/../../../x', '', 'a'.repeat(201)]) {
      await assert.rejects(downloadInput(client.jobs.files, id, input.id, storage), /is not an id this workbench can store a file by/, JSON.stringify(id));
    }
    assert.deepEqual(await readdir(outside), [], 'nothing was written outside the storage folder');
    assert.deepEqual(await readdir(storage), [], 'nor inside it');
    // A real id: the file lands in the batch's own folder, once.
    const path = await downloadInput(client.jobs.files, 'batch_ok-1', input.id, storage);
    assert.equal(path, join(storage, 'batch_ok-1', 'input.jsonl'));
    assert.deepEqual(await readdir(join(storage, 'batch_ok-1')), ['input.jsonl']);
  });

  it('the one check takes letters, digits, _ and - only, up to 200', () => {
    assert.equal(storedIdPath('/s', 'batch_abc-1', 'f'), join('/s', 'batch_abc-1', 'f'));
    for (const id of ['.', '..', 'a/b', 'a\\b', 'C:x', 'a b', 'x'.repeat(201), '', 'é']) assert.throws(() => storedIdPath('/s', id), /is not an id/, id);
  });
});
