/**
 * The last N traces on disk: owner-only, capped, and there again after a reload (a new store
 * opened on the same file, as a new window does).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceBuilder } from '../../src/trace/builder';
import type { Trace } from '../../src/trace/span';
import { TraceStore } from '../../src/trace/traceStore';
import { eventually } from '../support/receiver';

function trace(i: number) {
  const b = new TraceBuilder('turn', `dep-${i}`, { captureContent: false }, 1000 * i);
  b.step('forward to your app', 'client', 1000 * i + 1, 1000 * i + 5, { 'http.response.status_code': 200 });
  return b.finish({}, 1000 * i + 9);
}

describe('traces kept on disk', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'aoai-traces-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps the newest N across a reload, in a file only the user can read, compacted to its cap', async () => {
    const path = join(dir, 'nested', 'traces.jsonl');
    const store = await TraceStore.open(path, 5);
    const added: string[] = [];
    store.onDidAdd((t) => added.push(t.title));
    for (let i = 1; i <= 30; i++) {
      store.add(trace(i));
      // Written in batches of a few, so the file passes its cap and is compacted.
      if (i % 3 === 0) await store.flush();
    }
    await store.flush();
    assert.equal(added.length, 30);
    assert.deepEqual(store.all().map((t) => t.title), ['dep-26', 'dep-27', 'dep-28', 'dep-29', 'dep-30']);
    if (process.platform !== 'win32') assert.equal((await stat(path)).mode & 0o777, 0o600);
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean).length;
    assert.ok(lines <= 5 + 8, `${lines} lines on disk for a cap of 5`);
    const reloaded = await TraceStore.open(path, 5);
    assert.deepEqual(reloaded.all().map((t) => t.title), ['dep-26', 'dep-27', 'dep-28', 'dep-29', 'dep-30']);
    const last = reloaded.get(store.all()[4].traceId)!;
    assert.deepEqual(last, store.all()[4], 'the same spans, times and attributes');
    assert.equal(last.spans[1].name, 'forward to your app');
  });

  it("a trace handed over unbuilt (a reply's): built off the caller's path, once, there at once for Show Trace, and on disk a moment later as shown", async () => {
    const path = join(dir, 'traces.jsonl');
    const store = await TraceStore.open(path, 5);
    const added: Trace[] = [];
    store.onDidAdd((t) => added.push(t));
    const b = new TraceBuilder('turn', 'gpt-4o', { captureContent: false }, 1000);
    b.request({ source: 'panel', deployment: 'gpt-4o', api: 'chat', route: 'v1', startedAt: 1001, attempt: 1, totalMs: 7, outcome: 'ok', rateLimit: {} });
    const end = b.end({}, 1010);
    let builds = 0;
    store.add(() => (builds++, end()));
    assert.equal(builds, 0, "not built on the caller's path");
    const shown = store.get(b.traceId);
    assert.deepEqual(shown?.spans.map((s) => s.name), ['turn gpt-4o', 'chat gpt-4o'], 'Show Trace finds it at once');
    assert.deepEqual(added, [shown]);
    assert.equal(store.all().length, 1);
    assert.equal(builds, 1, 'built once');
    // Written on its own, with no flush asked for.
    const line = await eventually(async () => (await readFile(path, 'utf8').catch(() => '')).split('\n').find(Boolean), 5000, 'the trace written to disk');
    assert.deepEqual(JSON.parse(line), shown, 'the same spans, ids and times on disk as shown');
    // Nobody reads it: it is built once the caller's turn is over, then written.
    const unread = new TraceBuilder('turn', 'gpt-4o-mini', { captureContent: false });
    store.add(unread.end());
    assert.equal(added.length, 1);
    await eventually(() => added.length === 2, 5000, 'the unread trace built and announced');
    await eventually(async () => (await readFile(path, 'utf8')).includes(unread.traceId), 5000, 'the unread trace written to disk');
    assert.deepEqual(added.map((t) => t.title), ['gpt-4o', 'gpt-4o-mini']);
    store.dispose();
  });

  it('a trace whose building fails is the only one lost', async () => {
    const store = await TraceStore.open(join(dir, 'traces.jsonl'), 5);
    store.add(trace(1));
    store.add(() => {
      throw new Error('a broken trace');
    });
    store.add(() => undefined);
    store.add(trace(2));
    await store.flush();
    assert.deepEqual((await TraceStore.open(join(dir, 'traces.jsonl'), 5)).all().map((t) => t.title), ['dep-1', 'dep-2']);
  });

  it('skips a torn last line left by a crash', async () => {
    const path = join(dir, 'traces.jsonl');
    await writeFile(path, `${JSON.stringify(trace(1))}\n{"traceId":"ab`, { mode: 0o600 });
    const store = await TraceStore.open(path, 5);
    assert.deepEqual(store.all().map((t) => t.title), ['dep-1']);
    store.add(trace(2));
    await store.flush();
    assert.deepEqual((await TraceStore.open(path, 5)).all().map((t) => t.title), ['dep-1', 'dep-2']);
  });
});
