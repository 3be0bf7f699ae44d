/**
 * A `command:` link, a task or another extension can run our commands with any arguments: those
 * that act on the user's resource or write a file ask first, naming what and where; our own views
 * (arguments marked as ours, tree rows) ask nothing more than before.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WebhookEndpoint } from '../../src/service/types';
import { answerDialog, closeEmulatedService, emulatedService, execAsOurs, workbench, type EmulatedService } from './support';

/** Runs the command as a link or a task would: plain JSON arguments. */
const execPlain = <T>(cmd: string, arg: unknown) => vscode.commands.executeCommand<T>(`aoaiWorkbench.${cmd}`, JSON.parse(JSON.stringify(arg)));

describe('commands run with plain arguments ask first', function () {
  this.timeout(90_000);
  let svc: EmulatedService;

  before(async () => {
    svc = await emulatedService('Asked first');
  });
  after(async () => {
    await closeEmulatedService(svc);
  });

  /** The URLs of the endpoints the service holds now. */
  async function urlsOnService(): Promise<string[]> {
    const urls: string[] = [];
    for await (const e of svc.client.listWebhookEndpoints()) urls.push(e.url);
    return urls.sort();
  }

  const hook = (url: string) => ({ connectionId: svc.conn.id, name: 'from a link', url, eventTypes: ['response.completed'] });

  it('Create Webhook Endpoint with a plain {url} asks, naming the URL and the resource; Cancel creates nothing on the service', async () => {
    const before = await urlsOnService();
    const asked = answerDialog('Cancel');
    const made = await execPlain('createWebhookEndpoint', hook('https://evil.example/hook'));
    const text = await asked;
    assert.equal(made, undefined);
    assert.match(text, /https:\/\/evil\.example\/hook/, text);
    assert.ok(text.includes('Asked first') && text.includes(svc.emu.url), text);
    assert.deepEqual(await urlsOnService(), before, 'nothing was created on the service');
  });

  it('Continue creates it, at the URL the dialog named', async () => {
    const asked = answerDialog('Continue');
    const made = await execPlain<WebhookEndpoint>('createWebhookEndpoint', hook('https://allowed.example/hook'));
    assert.match(await asked, /https:\/\/allowed\.example\/hook/);
    assert.equal(made?.url, 'https://allowed.example/hook');
    assert.ok((await urlsOnService()).includes('https://allowed.example/hook'));
  });

  it('the same arguments from our own views create it without asking', async () => {
    const made = await execAsOurs<WebhookEndpoint>('createWebhookEndpoint', hook('https://ours.example/hook'));
    assert.equal(made?.url, 'https://ours.example/hook');
    assert.ok((await urlsOnService()).includes('https://ours.example/hook'));
  });

  it('Edit Connection pointing the stored key at another address asks, naming it; Cancel keeps the connection as it was', async () => {
    const asked = answerDialog('Cancel');
    const edited = await execPlain('editConnection', { connectionId: svc.conn.id, endpoint: 'https://evil.example' });
    assert.match(await asked, /https:\/\/evil\.example/);
    assert.equal(edited, undefined);
    const api = await workbench();
    assert.equal(api.services.store.get(svc.conn.id)?.endpoint, svc.conn.endpoint);
  });
});
