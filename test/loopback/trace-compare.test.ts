/**
 * A Compare round traced through its narrow observer (CompareOptions.observe), against the
 * emulator: each column's result names its own trace, whose request span is that column's
 * deployment, a column's 429 marked as an error in its trace, none traced when no observer.
 */
import assert from 'node:assert/strict';
import { ApiMemory } from '../../src/chat/apiMemory';
import { runCompareRound, type ColumnObserver, type CompareTarget } from '../../src/chat/compare/compareRun';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { TraceBuilder } from '../../src/trace/builder';
import type { Trace } from '../../src/trace/types';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

const prompt = (text: string) => ({ messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text }] }], sampling: {} });

describe('traces: a Compare round, one trace per column (emulator)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: { rateLimitWindowSeconds: 30, deployments: [deployment('chat', 'gpt-4o'), deployment('mini', 'gpt-4o-mini'), deployment('scarce', 'gpt-4o', { requestsPerMinute: 1 })] },
  })));
  after(() => closeAll(client, emu));

  const target = (name: string, model: string): CompareTarget => ({ id: `emu/${name}`, client, deployment: name, model });

  /** The observer the compare panel gives (src/vscode/trace's tracer), minus the store: traces kept in `kept`. */
  const observer = (kept: Trace[]) => (t: CompareTarget): ColumnObserver => {
    const b = new TraceBuilder('compare', t.deployment, { captureContent: false });
    return { traceId: b.traceId, observe: (r) => b.observe(r), end: (outcome) => kept.push(b.finish(outcome)) };
  };

  it("names each column's own trace on its result, with that column's request, and marks a column's 429 as an error", async () => {
    const options = { signal: new AbortController().signal, apiMemory: new ApiMemory() };
    await runCompareRound([target('scarce', 'gpt-4o'), target('chat', 'gpt-4o')], prompt('spend the window'), options);
    const kept: Trace[] = [];
    const round = await runCompareRound([target('chat', 'gpt-4o'), target('mini', 'gpt-4o-mini'), target('scarce', 'gpt-4o')], prompt('compare me'), { ...options, observe: observer(kept) });
    assert.equal(kept.length, 3, 'one trace a column');
    for (const column of round.columns) {
      const trace = kept.find((t) => t.traceId === column.traceId);
      assert.ok(trace, `the trace ${column.traceId} of ${column.id} was kept`);
      const [root, ...spans] = trace.spans;
      assert.equal(trace.kind, 'compare');
      assert.equal(root.name, `compare ${column.id.slice(4)}`);
      assert.deepEqual(spans.map((s) => s.name), [`chat ${column.id.slice(4)}`], 'its own request only');
    }
    const scarce = kept.find((t) => t.traceId === round.columns[2].traceId)!;
    assert.equal(round.columns[2].outcome, 'failed');
    assert.equal(scarce.spans[1].error, 'rate limited (429)');
    assert.ok(scarce.spans[0].error, 'the column failed: its root says why');
    assert.equal(new Set(round.columns.map((c) => c.traceId)).size, 3);
  });

  it('traces nothing and names no trace without an observer', async () => {
    const round = await runCompareRound([target('chat', 'gpt-4o'), target('mini', 'gpt-4o-mini')], prompt('plain'), { signal: new AbortController().signal });
    assert.deepEqual(round.columns.map((c) => c.traceId), [undefined, undefined]);
  });
});
