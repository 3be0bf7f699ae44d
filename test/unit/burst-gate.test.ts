// The views' redraws during a burst of deliveries: once for many changes, soon after a quiet spell,
// and spaced while the burst goes on (each redraw sends every visible row to VS Code again).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { BurstGate, LineBudget } from '../../src/vscode/webhooks/burst';

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await sleep(10);
  assert.ok(ok(), what);
}

describe('bursts: the views redraw, the log counts', () => {
  it('runs once for a burst of changes, soon after the first when things were quiet', async () => {
    let runs = 0;
    const gate = new BurstGate(() => runs++, 60, 400);
    const t0 = Date.now();
    for (let i = 0; i < 50; i++) gate.schedule();
    await until('one run', () => runs === 1);
    const took = Date.now() - t0;
    assert.ok(took >= 55, `the changes right after the first join its run (ran after ${took} ms)`);
    assert.ok(took < 350, 'not held back by the spacing after a quiet spell');
    await sleep(50);
    assert.equal(runs, 1);
    gate.dispose();
  });

  it('while a burst goes on, runs again no sooner than the spacing after the last run, with every change since', async () => {
    let runs = 0;
    const gate = new BurstGate(() => runs++, 5, 300);
    gate.schedule();
    await until('the first run', () => runs === 1);
    const first = Date.now();
    gate.schedule();
    gate.schedule();
    assert.equal(gate.scheduled, true);
    await sleep(150);
    assert.equal(runs, 1, 'held back while the burst goes on');
    await until('the second run', () => runs === 2);
    assert.ok(Date.now() - first >= 290, 'spaced from the first');
    assert.equal(gate.scheduled, false);
    gate.dispose();
  });

  it('runs nothing once disposed', async () => {
    let runs = 0;
    const gate = new BurstGate(() => runs++, 5, 300);
    gate.schedule();
    gate.dispose();
    await sleep(60);
    assert.equal(runs, 0);
  });
  it("a burst's log lines: the first few of each window one by one, the rest counted in one report when the window ends", async () => {
    const reports: number[] = [];
    const budget = new LineBudget((n) => reports.push(n), 3, 100);
    assert.deepEqual(Array.from({ length: 5 }, () => budget.admit()), [true, true, true, false, false]);
    await until('the report of the window', () => reports.length === 1);
    assert.deepEqual(reports, [2]);
    // A new window lets lines through again; ended at once (the listener stops), it reports what it counted then.
    assert.deepEqual(Array.from({ length: 4 }, () => budget.admit()), [true, true, true, false]);
    budget.endWindow();
    assert.deepEqual(reports, [2, 1]);
    // A window with nothing counted reports nothing.
    budget.admit();
    budget.endWindow();
    await sleep(150);
    assert.deepEqual(reports, [2, 1]);
    // Disposed (the listener's log goes), a window's count is never reported.
    for (let i = 0; i < 5; i++) budget.admit();
    budget.dispose();
    await sleep(150);
    assert.deepEqual(reports, [2, 1]);
  });
});
