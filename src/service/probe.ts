/** "Test Connection": tries what the extension needs (listing deployments, the webhook API, a chat). */
import * as l10n from '@vscode/l10n';
import type { AzureOpenAIClient } from './client';
import type { Deployment } from './types';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ProbeInput {
  /** Builds the client; a failure here (no key, no token) is the Credentials check. */
  client: () => Promise<AzureOpenAIClient>;
  /** Deployments the way the sidebar lists them (Resource Manager or the resource). */
  listDeployments: (signal: AbortSignal) => Promise<Deployment[]>;
  signal: AbortSignal;
  /** What is being tried now, for a progress message. */
  onStep?: (step: string) => void;
  /** How an error reads in a result (e.g. with secrets masked). */
  describe?: (err: unknown) => string;
}

const sources = (): Partial<Record<NonNullable<Deployment['source']>, string>> => ({
  models: ` ${l10n.t('(from the models API)')}`,
  arm: ` ${l10n.t('(from Resource Manager)')}`,
});

/** Each check runs even when an earlier one failed; chat is tried with the first deployment listed. */
export async function probeConnection(input: ProbeInput): Promise<CheckResult[]> {
  const describe = input.describe ?? ((err: unknown) => (err instanceof Error ? err.message : String(err)));
  const signal = input.signal;
  let client: AzureOpenAIClient;
  try {
    client = await input.client();
  } catch (err) {
    return [{ name: l10n.t('Credentials'), ok: false, detail: describe(err) }];
  }
  const checks: CheckResult[] = [];
  const check = async (name: string, step: string, run: () => Promise<string>) => {
    input.onStep?.(step);
    try {
      checks.push({ name, ok: true, detail: await run() });
    } catch (err) {
      checks.push({ name, ok: false, detail: describe(err) });
    }
  };
  let first: string | undefined;
  await check(l10n.t('Deployments'), l10n.t('listing deployments…'), async () => {
    const list = await input.listDeployments(signal);
    first = list[0]?.name;
    return `${l10n.t('{0} listed', list.length)}${(list[0]?.source && sources()[list[0].source]) ?? ''}`;
  });
  await check(l10n.t('Webhook API'), l10n.t('webhook API…'), async () => {
    const page = await client.listWebhookEndpointsPage({ limit: 100 }, { signal });
    return l10n.t('{0} endpoints', `${page.data.length}${page.has_more ? '+' : ''}`);
  });
  const deployment = first;
  if (!deployment) {
    checks.push({ name: l10n.t('Chat'), ok: false, detail: l10n.t('skipped: no deployment to try') });
    return checks;
  }
  await check(l10n.t('Chat'), l10n.t('chat with {0}…', deployment), async () => {
    const t0 = Date.now();
    await client.createChatCompletion({ deployment, messages: [{ role: 'user', content: 'ping' }] }, { signal });
    return l10n.t('{0} answered in {1} ms', deployment, Date.now() - t0);
  });
  return checks;
}
