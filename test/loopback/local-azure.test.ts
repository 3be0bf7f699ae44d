/**
 * `npm start`'s Azure account on loopback (scripts/host/localAzure.mjs, which start.mjs and the UI
 * journeys use): with only the environment and user settings it hands VS Code, the extension's own
 * sign-in (DefaultAzureCredential through src/auth/identity.ts, the real @azure/identity) gets
 * tokens that the emulator accepts on Resource Manager and on the data plane, so "Add Connection
 * from Azure" finds the emulator's account and a fine-tuned model deploys and chats.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenCredentialOptions } from '@azure/identity';
import { startLocalAzure } from '../../scripts/host/localAzure.mjs';
import { resolveCloud, type CloudEnvironment, type CustomCloudSetting } from '../../src/auth/clouds';
import { identitySource } from '../../src/auth/identity';
import { TokenCache, bearerAuth } from '../../src/auth/tokens';
import { ArmClient } from '../../src/service/arm';
import { AzureOpenAIClient } from '../../src/service/client';
import { eventually } from '../support/receiver';

const root = join(__dirname, '..', '..');
/** The source, not dist/emulator.js: `npm run test:node` alone must not test a stale bundle. */
const EMULATOR_SOURCE = ['--import', 'tsx', join(root, 'src', 'emulator', 'cli.ts')];

/** What Node does with NODE_EXTRA_CA_CERTS at start-up (too late to set it in this process). */
function trustExtraCa(file: string | undefined): TokenCredentialOptions {
  assert.ok(file, 'NODE_EXTRA_CA_CERTS names the provider’s CA');
  const ca = readFileSync(file, 'utf8');
  return { additionalPolicies: [{ position: 'perCall', policy: { name: 'extra-ca', sendRequest: (req, next) => ((req.tlsSettings = { ca }), next(req)) } }] };
}

describe('npm start: Entra ID and Deploy with no account', function () {
  this.timeout(60_000);
  let azure: Awaited<ReturnType<typeof startLocalAzure>>;
  let cloud: CloudEnvironment;
  const savedEnv = { ...process.env };
  const dir = mkdtempSync(join(tmpdir(), 'local-azure-'));
  const closers: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    const config = join(dir, 'emulator.json');
    writeFileSync(config, JSON.stringify({ jobs: { stepMs: 30 } }));
    azure = await startLocalAzure(root, { configFile: config, emulatorScript: EMULATOR_SOURCE });
    // code-server's environment, where DefaultAzureCredential looks for the service principal.
    Object.assign(process.env, azure.env);
    cloud = resolveCloud(azure.settings['aoaiWorkbench.cloud'], azure.settings['aoaiWorkbench.customCloud'] as CustomCloudSetting);
  });
  after(async () => {
    await Promise.all(closers.map((c) => c.close()));
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
    await azure?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The token cache the extension keeps for DefaultAzureCredential in one tenant. */
  const signIn = (tenantId?: string) => new TokenCache(identitySource('default', { cloud, credentialOptions: trustExtraCa(process.env.NODE_EXTRA_CA_CERTS) }), tenantId);

  it('the settings are user settings of a Custom cloud: sign-in at the local provider, Resource Manager at the emulator', () => {
    assert.equal(cloud.name, 'Custom');
    assert.equal(cloud.authorityHost, azure.issuer.authorityHost);
    assert.equal(cloud.resourceManagerEndpoint, azure.emulator.url);
    assert.equal(cloud.knownAuthority, false, 'no instance discovery at the public cloud');
  });

  let accountId: string;
  let tenantId: string;

  it("Add Connection from Azure's discovery: the subscription in the provider's tenant, the emulator's account with its endpoint", async () => {
    const arm = new ArmClient({ endpoint: cloud.resourceManagerEndpoint, auth: bearerAuth(signIn(), [cloud.managementScope], 'management') });
    closers.push(arm);
    const [sub] = await arm.listSubscriptions();
    assert.equal(sub?.tenantId, azure.issuer.tenantId);
    const accounts = await arm.listAccounts(sub.subscriptionId);
    const account = accounts.find((a) => a.name === 'emulator-openai');
    assert.ok(account, `accounts: ${accounts.map((a) => a.name).join(', ')}`);
    assert.equal(account.endpoint?.replace(/\/+$/, ''), azure.emulator.url);
    accountId = account.id;
    tenantId = sub.tenantId!;
  });

  it('a fine-tuned model deploys through Resource Manager with those tokens, then chats on the data plane (the API key unused)', async () => {
    const tokens = signIn(tenantId);
    const arm = new ArmClient({ endpoint: cloud.resourceManagerEndpoint, auth: bearerAuth(tokens, [cloud.managementScope], 'management') });
    const data = new AzureOpenAIClient({ endpoint: azure.emulator.url, auth: bearerAuth(tokens, cloud.dataPlaneScopes, 'data') });
    closers.push(arm, data);
    const training = join(dir, 'train.jsonl');
    const example = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` }] });
    writeFileSync(training, Array.from({ length: 10 }, (_, i) => example(i)).join('\n'));
    const file = await data.jobs.files.upload(training, { purpose: 'fine-tune' });
    const created = await data.jobs.fineTuning.create({ model: 'gpt-4.1-mini-2025-04-14', training_file: file.id, suffix: 'start', hyperparameters: { n_epochs: 1 } });
    const job = await eventually(async () => {
      const j = await data.jobs.fineTuning.retrieve(created.id);
      return j.status === 'succeeded' ? j : undefined;
    }, 30_000);
    assert.match(job.fine_tuned_model ?? '', /\.ft-[0-9a-f]+-start$/);

    const deployment = await arm.deployments.put(accountId, 'ft-start', { model: job.fine_tuned_model!, sku: 'standard', capacity: 1 }, { pollMs: 50 });
    assert.equal(deployment.provisioningState, 'Succeeded');
    assert.ok((await arm.listDeployments(accountId)).some((d) => d.name === 'ft-start'), 'the new deployment is listed');
    const reply = await data.createChatCompletion({ deployment: 'ft-start', messages: [{ role: 'user', content: 'hello from npm start' }] });
    assert.match(String(reply.choices[0]?.message?.content), /hello from npm start/);
  });
});
