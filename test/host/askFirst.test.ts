/**
 * A `command:` link, a task or another extension can run our commands with any arguments: those
 * that act on the user's resource or write a file ask first, naming what and where; our own views
 * (arguments marked as ours, tree rows) ask nothing more than before.
 *
 * VS Code shows no modal while extension tests run: it refuses it, and the refusal ("DialogService:
 * refused to show dialog in tests. Contents: <the question>") reaches the command as an error, which
 * ends it like Cancel and lands in our log. So here a question is read from the log, and Cancel is
 * what the refusal does; clicking Continue is for a UI journey.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { WebhookEndpoint } from '../../src/service/types';
import { closeEmulatedService, emulatedService, eventually, execAsOurs, settingsAndLogFiles, workbench, type EmulatedService } from './support';

/** Runs the command as a link or a task would: plain JSON arguments. */
const execPlain = <T>(cmd: string, arg: unknown) => vscode.commands.executeCommand<T>(`aoaiWorkbench.${cmd}`, JSON.parse(JSON.stringify(arg)));

const ourLog = () => settingsAndLogFiles().find((f) => f.includes('Azure OpenAI Workbench'));

describe('commands run with plain arguments ask first', function () {
  this.timeout(60_000);
  let svc: EmulatedService;

  before(async () => {
    svc = await emulatedService('Asked first');
  });
  after(async () => {
    await closeEmulatedService(svc);
  });

  /** Runs `run` and returns the question a modal asked meanwhile, as VS Code's refusal logged it. */
  async function questionDuring(run: () => Thenable<unknown>): Promise<{ result: unknown; question: string }> {
    const logged = (() => {
      const f = ourLog();
      return f ? readFileSync(f, 'utf8').length : 0;
    })();
    const result = await run();
    const question = await eventually(() => {
      const f = ourLog();
      const added = f ? readFileSync(f, 'utf8').slice(logged) : '';
      return /refused to show dialog in tests\. Contents: (.*)/.exec(added)?.[1];
    }, 10_000).catch(() => {
      throw new Error('no modal was asked for within 10 s (our log has no refused dialog)');
    });
    return { result, question };
  }

  /** The URLs of the endpoints the service holds now. */
  async function urlsOnService(): Promise<string[]> {
    const urls: string[] = [];
    for await (const e of svc.client.listWebhookEndpoints()) urls.push(e.url);
    return urls.sort();
  }

  const hook = (url: string) => ({ connectionId: svc.conn.id, name: 'from a link', url, eventTypes: ['response.completed'] });

  it('Create Webhook Endpoint with a plain {url} asks, naming the URL and the resource; unanswered, it creates nothing on the service', async () => {
    const before = await urlsOnService();
    const { result, question } = await questionDuring(() => execPlain('createWebhookEndpoint', hook('https://evil.example/hook')));
    assert.equal(result, undefined);
    assert.ok(question.includes('https://evil.example/hook'), question);
    assert.ok(question.includes('"Asked first"') && question.includes(svc.conn.endpoint), question);
    assert.deepEqual(await urlsOnService(), before, 'nothing was created on the service');
  });

  it('the same arguments from our own views create it without asking', async () => {
    const made = await execAsOurs<WebhookEndpoint>('createWebhookEndpoint', hook('https://ours.example/hook'));
    assert.equal(made?.url, 'https://ours.example/hook');
    assert.ok((await urlsOnService()).includes('https://ours.example/hook'));
  });

  it('an object shaped like a tree row is no row: it asks like any plain arguments', async () => {
    const forged = { ...hook('https://evil.example/row'), type: 'group', parent: {}, connection: { ...svc.conn, endpoint: 'https://evil.example' } };
    const { result, question } = await questionDuring(() => execPlain('createWebhookEndpoint', forged));
    assert.equal(result, undefined);
    assert.ok(question.includes('https://evil.example/row'), question);
    assert.ok(!(await urlsOnService()).includes('https://evil.example/row'));
  });

  it('Edit Connection pointing the stored key at another address asks, naming it; unanswered, the connection stays as it was', async () => {
    const { result, question } = await questionDuring(() => execPlain('editConnection', { connectionId: svc.conn.id, endpoint: 'https://evil.example' }));
    assert.equal(result, undefined);
    assert.ok(question.includes('https://evil.example'), question);
    const api = await workbench();
    assert.equal(api.services.store.get(svc.conn.id)?.endpoint, svc.conn.endpoint);
  });

  it('Transfer Call with a plain targetUri and Export Batch Results with a plain path ask before anything else', async () => {
    const transfer = await questionDuring(() => execPlain('transferCall', { connectionId: svc.conn.id, callId: 'rtc_1', targetUri: 'sip:attacker@evil.example' }));
    assert.equal(transfer.result, undefined);
    assert.ok(transfer.question.includes('sip:attacker@evil.example') && transfer.question.includes('rtc_1'), transfer.question);
    const exported = await questionDuring(() => execPlain('exportBatchResults', { connectionId: svc.conn.id, batchId: 'batch_1', format: 'csv', path: '/tmp/x/evil.csv' }));
    assert.equal(exported.result, undefined);
    assert.ok(exported.question.includes('/tmp/x/evil.csv'), exported.question);
  });
});
