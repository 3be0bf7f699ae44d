/**
 * Deployments in VS Code's own chat, from a consumer's side: `vscode.lm.selectChatModels` finds
 * the emulator's chat deployments under the `azure-openai` vendor, `sendRequest` streams, counts
 * tokens, cancels (the emulator sees the client go), and refusals read as what to do. An Entra ID
 * connection serves models with bearer tokens; removing a connection removes its models.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { clearConnections, closeEmulatedService, emulatedService, eventually, testIssuer, usageToday, workbench, type TestIssuer } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);
const VENDOR = 'azure-openai';
const PNG_1x1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));

/** The models of one connection, once VS Code has them (it asks the provider again after a change). */
async function modelsOf(connectionId: string, count: number): Promise<vscode.LanguageModelChat[]> {
  return eventually(async () => {
    const models = (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.id.startsWith(`${connectionId}/`));
    return models.length === count ? models : undefined;
  }, 15_000);
}

/** Sends and reads the whole stream; text pieces and tool calls in order. */
async function send(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions = {},
  token?: vscode.CancellationToken,
) {
  const res = await model.sendRequest(messages, options, token);
  const text: string[] = [];
  const calls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of res.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text.push(part.value);
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  }
  return { text, calls };
}

const byDeployment = (models: vscode.LanguageModelChat[], name: string) => {
  const m = models.find((x) => x.id.endsWith(`/${name}`));
  assert.ok(m, `a model for ${name} in ${models.map((x) => x.id).join(', ')}`);
  return m;
};

describe('language model provider', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let conn: ConnectionInfo;
  let models: vscode.LanguageModelChat[];

  before(async () => {
    ({ emu, conn } = await emulatedService('LM emulator', {
      streamTokenDelayMs: 2,
      rateLimitWindowSeconds: 60,
      deployments: [
        { name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 50, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        { name: 'reasoner', model: 'o3-mini', version: '2025-01-31', sku: 'GlobalStandard', capacity: 20, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        { name: 'one-a-minute', model: 'gpt-4o-mini', version: '2024-07-18', sku: 'Standard', capacity: 1, requestsPerMinute: 1, tokensPerMinute: 1e7 },
        { name: 'embeddings', model: 'text-embedding-3-large', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
      ],
    }));
    models = await modelsOf(conn.id, 3);
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  it('lists every chat deployment of the connection, named with its resource, with the profile\'s family, limits and capabilities', () => {
    assert.deepEqual(models.map((m) => m.id.split('/')[1]).sort(), ['gpt-4o', 'one-a-minute', 'reasoner'], 'the embeddings deployment is not a chat model');
    const gpt4o = byDeployment(models, 'gpt-4o');
    assert.equal(gpt4o.vendor, VENDOR);
    assert.equal(gpt4o.name, 'gpt-4o (LM emulator)');
    assert.equal(gpt4o.family, 'gpt-4o');
    assert.equal(gpt4o.maxInputTokens, 128_000);
    const reasoner = byDeployment(models, 'reasoner');
    assert.equal(reasoner.family, 'o3-mini');
    assert.equal(reasoner.maxInputTokens, 200_000);
    // What a consumer sees of the declared capabilities (the host names them supportsImageToText / supportsToolCalling).
    type Caps = { imageInput?: boolean; toolCalling?: boolean | number; supportsImageToText?: boolean; supportsToolCalling?: boolean };
    const caps = (m: vscode.LanguageModelChat) => {
      const c = (m as unknown as { capabilities?: Caps }).capabilities ?? {};
      return { images: c.imageInput ?? c.supportsImageToText, tools: c.toolCalling ?? c.supportsToolCalling, raw: JSON.stringify(c) };
    };
    assert.equal(caps(gpt4o).images, true, caps(gpt4o).raw);
    assert.equal(caps(reasoner).images, false, caps(reasoner).raw);
    assert.ok(caps(reasoner).tools, caps(reasoner).raw);
  });

  it('streams a reply and records its usage in the usage log, and the status bar shows the day\'s total', async () => {
    const model = byDeployment(models, 'gpt-4o');
    const { text } = await send(model, [vscode.LanguageModelChatMessage.User('hello from a consumer')]);
    assert.ok(text.length > 3, `the reply came in pieces (${text.length})`);
    assert.match(text.join(''), /You said: hello from a consumer/);
    const api = await workbench();
    const total = await usageToday(conn.id, 'gpt-4o');
    assert.ok(total && total.requests >= 1 && total.promptTokens > 0 && total.completionTokens > 0, JSON.stringify(total));
    // The status bar shows the day's total, and it grows with the next reply.
    await api.services.usageStatus.refresh();
    const first = api.services.usageStatus.text;
    assert.match(first, /^\$\(pulse\) [\d,.]+k? tokens/);
    await send(model, [vscode.LanguageModelChatMessage.User('and once more')]);
    await api.services.usageStatus.refresh();
    assert.notEqual(api.services.usageStatus.text, first, 'the status bar total changed after a second reply');
  });

  it('passes a tool round trip and model options on to the deployment', async () => {
    const model = byDeployment(models, 'reasoner');
    const messages = [
      vscode.LanguageModelChatMessage.User('What time is it?'),
      vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart('call_1', 'clock', {})]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart('call_1', [new vscode.LanguageModelTextPart('12:00')]), new vscode.LanguageModelTextPart('Thanks')]),
    ];
    const tools = [{ name: 'clock', description: 'The time', inputSchema: { type: 'object', properties: {} } }];
    const { text } = await send(model, messages, { tools, modelOptions: { reasoningEffort: 'low', maxTokens: 500 } });
    assert.match(text.join(''), /You said: Thanks/);
  });

  it('counts tokens with the o200k tokenizer, for text and for messages', async () => {
    const model = byDeployment(models, 'gpt-4o');
    assert.equal(await model.countTokens('hello world'), 2);
    assert.equal(await model.countTokens(vscode.LanguageModelChatMessage.User('hello world')), 2 + 3);
    assert.equal(await model.countTokens('<|endoftext|>'), 7, 'special-token text is counted as text, not refused');
  });

  it('cancelling stops the stream; the emulator sees the client go', async () => {
    const model = byDeployment(models, 'gpt-4o');
    const aborted = emu.stats.streamsAborted;
    const cts = new vscode.CancellationTokenSource();
    const res = await model.sendRequest([vscode.LanguageModelChatMessage.User('/long 5000')], {}, cts.token);
    let pieces = 0;
    try {
      for await (const _ of res.text) {
        if (++pieces === 5) cts.cancel();
      }
    } catch (err) {
      assert.ok(err instanceof vscode.CancellationError || /cancel/i.test(String(err)), String(err));
    }
    assert.ok(pieces >= 5 && pieces < 1000, `the stream ended early (${pieces} pieces of about 5000)`);
    await eventually(() => emu.stats.streamsAborted > aborted);
  });

  it('refusals reach the consumer as messages that say what happened and what to do', async () => {
    const gpt4o = byDeployment(models, 'gpt-4o');
    await assert.rejects(send(gpt4o, [vscode.LanguageModelChatMessage.User('/filter')]), /Blocked by the content filter: hate \(high severity\) in the prompt, violence .* Rephrase/);
    const limited = byDeployment(models, 'one-a-minute');
    await send(limited, [vscode.LanguageModelChatMessage.User('first')]);
    await assert.rejects(send(limited, [vscode.LanguageModelChatMessage.User('second')]), /Rate limit reached on 127\.0\.0\.1:\d+\. Retry in \d+ seconds?\./);
    const image = vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart('What is this?'), vscode.LanguageModelDataPart.image(PNG_1x1, 'image/png')]);
    await assert.rejects(send(byDeployment(models, 'reasoner'), [image]), /"reasoner" \(o3-mini\) does not take images\. Remove the image, or pick a deployment/);
    await assert.rejects(send(gpt4o, [vscode.LanguageModelChatMessage.User('hi')], { modelOptions: { temperature: 7 } }), /"temperature" is 7: it must be a number from 0 to 2/);
  });

  it('a deployment deleted on the service since it was listed gets the service\'s advice', async () => {
    const gone = emu.config.deployments.findIndex((d) => d.name === 'gpt-4o');
    const [removed] = emu.config.deployments.splice(gone, 1);
    try {
      await assert.rejects(send(byDeployment(models, 'gpt-4o'), [vscode.LanguageModelChatMessage.User('hi')]), /The deployment "gpt-4o" does not exist on 127\.0\.0\.1:\d+\. Check the name/);
    } finally {
      emu.config.deployments.splice(gone, 0, removed);
    }
  });

  it('a deployment created on the service appears once the sidebar lists the deployments again', async () => {
    emu.config.deployments.push({ name: 'added-later', model: 'gpt-4.1-mini', version: '2025-04-14', sku: 'Standard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7 });
    try {
      const api = await workbench();
      const node = await eventually(() => api.services.tree.connectionNode(conn.id));
      api.services.tree.refresh(node);
      await api.services.tree.settledChildren(node.deployments);
      const updated = await modelsOf(conn.id, 4);
      assert.equal(byDeployment(updated, 'added-later').family, 'gpt-4.1');
    } finally {
      emu.config.deployments.splice(emu.config.deployments.findIndex((d) => d.name === 'added-later'), 1);
    }
  });

  it('removing the connection removes its models', async () => {
    const api = await workbench();
    await api.services.store.remove(conn.id);
    await modelsOf(conn.id, 0);
    conn = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label: 'LM emulator' }))!;
    models = await modelsOf(conn.id, 3);
  });
});

describe('language model provider: tools, images and the Responses API', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let models: vscode.LanguageModelChat[];
  const weather = { name: 'get_weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

  before(async () => {
    emu = await startEmulator({
      config: {
        streamTokenDelayMs: 1,
        // gpt-5-codex is served on the Responses API only: Chat Completions refuses it.
        deployments: [['gpt-4o', 'gpt-4o'], ['reasoner', 'o3-mini'], ['gpt-5-codex', 'gpt-5-codex']].map(([name, model]) => ({
          name, model, version: '1', sku: 'GlobalStandard', capacity: 1, requestsPerMinute: 1000, tokensPerMinute: 1e7,
        })),
      },
    });
    await clearConnections();
    const conn = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label: 'LM tools' }))!;
    models = await modelsOf(conn.id, 3);
  });
  after(async () => {
    await clearConnections();
    await emu.close();
  });

  for (const deployment of ['gpt-4o', 'gpt-5-codex']) {
    it(`a tool round trip with ${deployment}: the model asks for the tool, gets its result, and answers`, async () => {
      const model = byDeployment(models, deployment);
      const ask = vscode.LanguageModelChatMessage.User('Use get_weather for Oslo');
      const first = await send(model, [ask], { tools: [weather] });
      assert.equal(first.calls.length, 1, `one tool call (text: ${first.text.join('')})`);
      const [call] = first.calls;
      assert.equal(call.name, 'get_weather');
      assert.deepEqual(call.input, { city: 'Oslo' });
      const result = new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('4 °C and snow')]);
      const history = [ask, vscode.LanguageModelChatMessage.Assistant([call]), vscode.LanguageModelChatMessage.User([result])];
      const second = await send(model, history, { tools: [weather] });
      assert.match(second.text.join(''), /The function get_weather returned: 4 °C and snow/);
      assert.equal(second.calls.length, 0);
    });
  }

  it('an image reaches gpt-4o and is billed in the prompt; a model that reads no images is refused before anything is sent', async () => {
    const model = byDeployment(models, 'gpt-4o');
    const [connectionId] = model.id.split('/');
    const prompt = async () => (await usageToday(connectionId, 'gpt-4o'))?.promptTokens ?? 0;
    const p0 = await prompt();
    await send(model, [vscode.LanguageModelChatMessage.User('What is this?')]);
    const p1 = await prompt();
    const withImage = vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart('What is this?'), vscode.LanguageModelDataPart.image(PNG_1x1, 'image/png')]);
    const { text } = await send(model, [withImage]);
    assert.match(text.join(''), /You said: What is this\?/);
    const p2 = await prompt();
    assert.ok(p2 - p1 - (p1 - p0) >= 85, `the image added its tokens to the prompt: ${p1 - p0} without, ${p2 - p1} with`);
    const requests = emu.stats.requests;
    const refused = /"reasoner" \(o3-mini\) does not take images\. Remove the image, or pick a deployment of a model that reads images/;
    await assert.rejects(send(byDeployment(models, 'reasoner'), [withImage]), refused);
    assert.equal(emu.stats.requests, requests, 'nothing was sent');
  });

  it('a Responses-only deployment is listed and answers, with its usage recorded', async () => {
    const codex = byDeployment(models, 'gpt-5-codex');
    assert.equal(codex.family, 'gpt-5-codex');
    const { text } = await send(codex, [vscode.LanguageModelChatMessage.User('hello codex')], { modelOptions: { reasoningEffort: 'low', temperature: 0.5 } });
    assert.ok(text.length > 3, `the reply came in pieces (${text.length})`);
    assert.match(text.join(''), /You said: hello codex/);
    const total = await usageToday(codex.id.split('/')[0], 'gpt-5-codex');
    assert.ok(total && total.requests >= 1 && total.promptTokens > 0 && total.completionTokens > 0, JSON.stringify(total));
  });
});

describe('language model provider with Entra ID', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let issuer: TestIssuer;
  const config = () => vscode.workspace.getConfiguration('aoaiWorkbench');

  before(async () => {
    issuer = testIssuer();
    emu = await startEmulator({
      config: {
        streamTokenDelayMs: 1,
        disableLocalAuth: true,
        entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile, grantedPrincipals: [issuer.oid] },
        deployments: [{ name: 'keyless', model: 'gpt-4.1', version: '2025-04-14', sku: 'GlobalStandard', capacity: 10, requestsPerMinute: 1000, tokensPerMinute: 1e7 }],
      },
    });
    await clearConnections();
    await config().update('cloud', 'Custom', vscode.ConfigurationTarget.Global);
    const cloud = { authorityHost: issuer.authorityHost, resourceManagerEndpoint: emu.url, managementScope: 'https://management.azure.com/.default' };
    await config().update('customCloud', cloud, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await clearConnections();
    await config().update('cloud', undefined, vscode.ConfigurationTarget.Global);
    await config().update('customCloud', undefined, vscode.ConfigurationTarget.Global);
    await emu?.close();
  });

  it('serves the deployments of a keyless connection; without the role, the error names the role to ask for', async () => {
    const info = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, auth: 'entraId', tokenSource: 'default', tenantId: issuer.tenantId, label: 'Keyless' }))!;
    const [model] = await modelsOf(info.id, 1);
    assert.equal(model.name, 'keyless (Keyless)');
    const { text } = await send(model, [vscode.LanguageModelChatMessage.User('hello with a token')]);
    assert.match(text.join(''), /You said: hello with a token/);
    // The role is taken away after the models were listed.
    emu.config.entra!.grantedPrincipals!.splice(0);
    await assert.rejects(send(model, [vscode.LanguageModelChatMessage.User('again')]), /"Cognitive Services OpenAI User" role/);
  });
});
