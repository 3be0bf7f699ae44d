/**
 * A burst of deliveries redraws the Webhook Events view at a pace that slows as rows add up: each
 * redraw makes the extension host rebuild every row and keep a little of each for as long as the
 * view lives, so redrawing 1,000 rows five times a second grew the host by tens of MB (issue #25).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { redrawPaceMs } from '../../src/vscode/webhooks/eventsTree';
import { signedHeaders } from '../../src/webhooks/signature';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const DELIVERIES = 400;

describe('Webhook Events view under a burst of deliveries', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let client: AzureOpenAIClient;

  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  it('redraws its rows no sooner than the pace for the rows it shows, and shows every delivery at the end', async () => {
    let connId: string;
    ({ emu, client, conn: { id: connId } } = await emulatedService('Pace emulator'));
    const api = await workbench();
    const endpoint = { mode: 'create', name: 'pace', eventTypes: ['batch.completed'] };
    const started = await vscode.commands.executeCommand<{ endpointId: string; localUrl: string }>('aoaiWorkbench.startListening', { connectionId: connId, endpoint });
    const secret = await api.services.store.signingSecret(connId, started!.endpointId);
    assert.ok(secret, 'the endpoint secret was captured');
    // Whole-list redraws only (a row's own update is not one), with the rows there were then.
    const redraws: Array<{ at: number; rows: number }> = [];
    const sub = api.eventsTree.onDidChangeTreeData((node) => {
      if (node === undefined) redraws.push({ at: Date.now(), rows: api.services.listener.events.size });
    });
    try {
      for (let n = 0; n < DELIVERIES; n++) {
        const body = JSON.stringify({ object: 'event', id: `evt_pace_${n}`, type: 'batch.completed', created_at: Math.floor(Date.now() / 1000), data: { id: `batch_pace_${n}` } });
        const res: Response = await fetch(`${started!.localUrl}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret!, `msg_pace_${n}`, body) }, body });
        assert.equal(res.status, 200);
      }
      await eventually(() => api.eventsTree.getChildren().length === DELIVERIES);
      // The last deliveries are drawn too, once the pace allows.
      await eventually(() => redraws.at(-1)?.rows === DELIVERIES, 5000);
    } finally {
      sub.dispose();
    }
    assert.ok(redraws.length >= 2, `the view was redrawn during the burst (${redraws.length} times)`);
    for (let i = 1; i < redraws.length; i++) {
      const gap = redraws[i].at - redraws[i - 1].at;
      // Timers may fire a millisecond early on a coarse clock.
      assert.ok(gap >= redrawPaceMs(redraws[i - 1].rows) - 2, `redraw ${i} came ${gap} ms after one of ${redraws[i - 1].rows} rows`);
    }
    assert.ok(redrawPaceMs(DELIVERIES) >= 400, 'hundreds of rows are redrawn a few times a second at most');
  });
});
