// An Azure account on loopback, for `npm start`, the host tests and the UI journeys alike: a local
// identity provider stands in for Entra ID (test/support/testIssuer.ts: the real `oidc-provider`
// over HTTPS), the emulator accepts its tokens on the data plane and on Resource Manager, and VS
// Code gets what a user of DefaultAzureCredential has: a service principal in AZURE_*, and the
// provider's CA trusted as a corporate CA would be. With that, "Add Connection from Azure" and
// Deploy (which goes through Resource Manager) work with no account.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulatorProcess } from './emulatorProcess.mjs';

// Through tsx's require: its tsImport loads a .ts file of this (CommonJS) package from a data: URL, where
// the dynamic import('oidc-provider') inside testIssuer.ts cannot resolve a package name on Node 20.
const load = async (path) => (await import('tsx/cjs/api')).require(path, import.meta.url);

/**
 * The local identity provider, and the environment VS Code (code-server) needs to sign in to it
 * with DefaultAzureCredential: the service principal in AZURE_*, AZURE_AUTHORITY_HOST, and its CA
 * in NODE_EXTRA_CA_CERTS (Node reads it only at start-up, so it goes into the environment).
 */
export async function startIdentityProvider() {
  const { startTestIssuer } = await load('../../test/support/testIssuer.ts');
  const issuer = await startTestIssuer();
  const client = issuer.clients[0];
  const env = {
    NODE_EXTRA_CA_CERTS: issuer.caFile,
    AZURE_TENANT_ID: issuer.tenantId,
    AZURE_CLIENT_ID: client.id,
    AZURE_CLIENT_SECRET: client.secret,
    AZURE_AUTHORITY_HOST: issuer.authorityHost,
  };
  return { issuer, env };
}

/**
 * The emulator's config on top of `base`: tokens of `issuer` accepted (every principal holds the
 * roles), and its subscriptions in the issuer's tenant, since a connection from Azure asks for
 * tokens in its subscription's tenant.
 */
export async function emulatorConfigFor(issuer, base = {}) {
  const { DEFAULT_CONFIG } = await load('../../src/emulator/config.ts');
  const subscriptions = (base.subscriptions ?? DEFAULT_CONFIG.subscriptions).map((s) => ({ ...s, tenantId: issuer.tenantId }));
  return { ...base, entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile }, subscriptions };
}

/**
 * User settings (never a workspace's: they decide where tokens go) that make the extension sign in
 * at the local provider and find Resource Manager at the emulator.
 */
export function cloudSettings(issuer, emulatorUrl) {
  return {
    'aoaiWorkbench.cloud': 'Custom',
    'aoaiWorkbench.customCloud': {
      authorityHost: issuer.authorityHost,
      resourceManagerEndpoint: emulatorUrl,
      managementScope: 'https://management.azure.com/.default',
    },
  };
}

/**
 * Starts the identity provider and the emulator (its CLI, with `configFile` under the Entra
 * settings) wired to each other. `emulatorScript`: node arguments that run the CLI (default:
 * dist/emulator.js). Returns what code-server needs (`env`, `settings`) and `stop()`.
 */
export async function startLocalAzure(root, { configFile, stderr = 'ignore', emulatorScript } = {}) {
  const { issuer, env } = await startIdentityProvider();
  const dir = mkdtempSync(join(tmpdir(), 'aoai-local-azure-'));
  let emulator;
  try {
    const base = configFile ? JSON.parse(readFileSync(configFile, 'utf8')) : {};
    const config = join(dir, 'emulator.json');
    writeFileSync(config, JSON.stringify(await emulatorConfigFor(issuer, base), null, 2));
    emulator = await startEmulatorProcess(root, ['--config', config], { stderr, script: emulatorScript });
  } catch (err) {
    await issuer.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const stop = async () => {
    emulator.stop();
    await issuer.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { issuer, emulator, env, settings: cloudSettings(issuer, emulator.url), stop };
}
