import assert from 'node:assert/strict';
import { checkDebugConfig, DEFAULT_DEBUG_EVENTS, pickConnection } from '../../src/webhooks/session/debugConfig';

const error = (raw: unknown) => {
  const r = checkDebugConfig(raw);
  return r.ok ? undefined : r.error;
};

describe('the webhook debug configuration', () => {
  it('takes the app as a URL or a port, and defaults the rest', () => {
    const r = checkDebugConfig({ type: 'azure-openai-webhooks', request: 'launch', name: 'Hooks', forwardTo: 3000 });
    assert.deepEqual(r, { ok: true, config: { name: 'Hooks', forwardTo: 'http://localhost:3000/webhook', eventTypes: DEFAULT_DEBUG_EVENTS } });
    const port = checkDebugConfig({ forwardTo: ' 8080 ' });
    assert.equal(port.ok && port.config.forwardTo, 'http://localhost:8080/webhook');
    for (const [forwardTo, url] of [[1, 'http://localhost:1/webhook'], [65535, 'http://localhost:65535/webhook'], [' http://localhost:3000/in ', 'http://localhost:3000/in']]) {
      const r2 = checkDebugConfig({ forwardTo });
      assert.equal(r2.ok && r2.config.forwardTo, url, String(forwardTo));
    }
    const full = checkDebugConfig({ forwardTo: 'https://app.localhost/hooks', connection: ' Work ', endpoint: ' we_1 ', eventTypes: ['batch.failed', 'batch.failed'], tunnel: 'ngrok' });
    assert.deepEqual(full, { ok: true, config: { name: 'Webhooks', forwardTo: 'https://app.localhost/hooks', connection: 'Work', endpoint: 'we_1', eventTypes: ['batch.failed'], tunnel: 'ngrok' } });
  });

  it('names what to change in launch.json', () => {
    assert.match(error({}) ?? '', /"forwardTo" is missing/);
    assert.match(error({ forwardTo: 'ftp://x' }) ?? '', /must be an http:\/\/ or https:\/\/ URL, or a port/);
    for (const port of [0, 65536, 70000, 3.5]) assert.match(error({ forwardTo: port }) ?? '', /"forwardTo" is missing/, String(port));
    assert.match(error({ forwardTo: '   ' }) ?? '', /"forwardTo" is missing/);
    for (const bad of ['3000abc', 'abc3000']) assert.match(error({ forwardTo: bad }) ?? '', new RegExp(`URL, or a port: "${bad}" is neither`));
    assert.match(error({ forwardTo: 3000, connection: '  ' }) ?? '', /"connection" must be a non-empty string/);
    for (const notObject of [null, 'forwardTo', 42]) assert.match(error(notObject) ?? '', /not an object/, String(notObject));
    assert.match(error({ forwardTo: 3000, connection: '' }) ?? '', /"connection" must be a non-empty string/);
    assert.match(error({ forwardTo: 3000, endpoint: 5 }) ?? '', /"endpoint" must be a non-empty string/);
    assert.match(error({ forwardTo: 3000, eventTypes: [] }) ?? '', /must be a list of event types/);
    assert.match(error({ forwardTo: 3000, eventTypes: ['response.done', 7] }) ?? '', /unknown types: "response.done", 7\. Known: response.completed, response.failed, /);
    assert.match(error({ forwardTo: 3000, tunnel: 'ssh' }) ?? '', /"tunnel" must be one of none, manual, localtunnel/);
    assert.match(error([]) ?? '', /not an object/);
  });

  it('finds the connection by name or endpoint, or the only one, and says which exist', () => {
    const a = { label: 'Work', endpoint: 'https://work.openai.azure.com' };
    const b = { label: 'local :8080', endpoint: 'http://127.0.0.1:8080' };
    assert.equal(pickConnection([a], undefined), a);
    assert.equal(pickConnection([a, b], 'work'), a);
    assert.equal(pickConnection([a, b], 'http://127.0.0.1:8080/'), b);
    assert.equal(pickConnection([a, b], ' http://127.0.0.1:8080// '), b, 'spaces and trailing slashes do not count');
    assert.match(String(pickConnection([], 'Home')), /Connections: none\./);
    assert.match(String(pickConnection([a, b], 'Home')), /Connections: "Work", "local :8080"\./);
    assert.match(String(pickConnection([a, b], undefined)), /There are 2 connections: name one in "connection" \("Work", "local :8080"\)/);
    assert.match(String(pickConnection([], undefined)), /No Azure OpenAI connection yet/);
    assert.match(String(pickConnection([a], 'Home')), /No connection is called or points at "Home"\. Connections: "Work"/);
  });
});
