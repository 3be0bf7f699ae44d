/**
 * "Add Connection from Azure": sign in, pick a subscription (in any tenant), pick an Azure OpenAI
 * or AI Services account; its endpoint becomes an Entra ID connection whose deployments come
 * from Resource Manager.
 */
import * as vscode from 'vscode';
import type { CognitiveAccount, Subscription } from '../../service/arm';
import { normalizeEndpoint } from '../../service/connection';
import type { TokenSourceKind } from '../auth/authManager';
import { newConnectionId, type ConnectionInfo } from '../connections/connectionStore';
import { askLabel, askTenant, pickTokenSource } from '../connections/connectionWizard';
import { logInfo } from '../log';
import type { Services } from '../services';
import { isNode } from './args';
import { withCancellableProgress } from './registry';

/** Arguments for scripts and tests: every step given means no UI. */
export interface AddFromAzureArgs {
  tokenSource?: TokenSourceKind;
  tenantId?: string;
  subscriptionId?: string;
  /** ARM id or name of the account. */
  account?: string;
  label?: string;
}

const TITLE = 'Add Connection from Azure';
const LAST_SOURCE = 'aoaiWorkbench.lastTokenSource';

type SubscriptionPick = vscode.QuickPickItem & { subscription?: Subscription; otherTenant?: true };

async function chooseSubscription(
  s: Services,
  tokenSource: TokenSourceKind,
  args: AddFromAzureArgs,
): Promise<{ subscription: Subscription; tenantId?: string } | undefined> {
  let tenantId = args.tenantId;
  for (;;) {
    const subs = await withCancellableProgress(`Listing your subscriptions${tenantId ? ` in ${tenantId}` : ''}…`, (signal) => s.clients.arm(tokenSource, tenantId).listSubscriptions(signal));
    if (args.subscriptionId) {
      const subscription = subs.find((x) => x.subscriptionId.toLowerCase() === args.subscriptionId!.toLowerCase());
      if (!subscription) throw new Error(`The subscription ${args.subscriptionId} is not visible to this identity${tenantId ? ` in tenant ${tenantId}` : ''}.`);
      return { subscription, tenantId };
    }
    const items: SubscriptionPick[] = subs
      .filter((x) => !x.state || x.state === 'Enabled')
      .map((x) => ({ label: `$(key) ${x.displayName}`, description: x.subscriptionId, detail: x.tenantId ? `Tenant ${x.tenantId}` : undefined, subscription: x }));
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(organization) Another tenant…', description: 'Sign in to the tenant of a resource that is not listed', otherTenant: true },
    );
    const pick = await vscode.window.showQuickPick(items, {
      title: `${TITLE}: subscription`,
      placeHolder: subs.length ? 'Choose the subscription of your Azure OpenAI resource' : 'No enabled subscription in this tenant: try another tenant',
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!pick) return undefined;
    if (pick.subscription) return { subscription: pick.subscription, tenantId };
    const next = await askTenant(`${TITLE}: tenant`, tenantId);
    if (next === undefined) return undefined;
    tenantId = next.trim() || undefined;
  }
}

async function chooseAccount(
  s: Services,
  tokenSource: TokenSourceKind,
  tenantId: string | undefined,
  sub: Subscription,
  args: AddFromAzureArgs,
): Promise<CognitiveAccount | undefined> {
  const accounts = await withCancellableProgress(`Listing Azure OpenAI resources in ${sub.displayName}…`, (signal) => s.clients.arm(tokenSource, tenantId).listAccounts(sub.subscriptionId, signal));
  if (args.account) {
    const want = args.account.toLowerCase();
    const account = accounts.find((a) => a.id.toLowerCase() === want || a.name.toLowerCase() === want);
    if (!account) throw new Error(`No Azure OpenAI or AI Services resource "${args.account}" in ${sub.displayName}.`);
    return account;
  }
  if (accounts.length === 0) {
    void vscode.window.showInformationMessage(
      `There is no Azure OpenAI or AI Services resource in "${sub.displayName}" that you can see. Create one in the Azure portal, or run the command again and pick another subscription.`,
    );
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    accounts.map((a) => ({
      label: `$(cloud) ${a.name}`,
      description: [a.kind, a.location].filter(Boolean).join(' · '),
      detail: `Resource group ${a.resourceGroup}${a.endpoint ? ` · ${a.endpoint}` : ''}`,
      account: a,
    })),
    { title: `${TITLE}: resource`, placeHolder: 'Choose the Azure OpenAI or AI Services resource', matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true },
  );
  return pick?.account;
}

export async function addConnectionFromAzure(s: Services, arg: unknown): Promise<ConnectionInfo | undefined> {
  const args: AddFromAzureArgs = arg && typeof arg === 'object' && !isNode(arg) ? (arg as AddFromAzureArgs) : {};
  const tokenSource = args.tokenSource ?? (await pickTokenSource(`${TITLE}: sign in with`, s.context.globalState.get<TokenSourceKind>(LAST_SOURCE)));
  if (!tokenSource) return undefined;
  await s.context.globalState.update(LAST_SOURCE, tokenSource);

  const chosen = await chooseSubscription(s, tokenSource, args);
  if (!chosen) return undefined;
  const { subscription } = chosen;
  const account = await chooseAccount(s, tokenSource, chosen.tenantId, subscription, args);
  if (!account) return undefined;
  if (!account.endpoint) throw new Error(`"${account.name}" has no endpoint in Resource Manager yet. If it is still being created, try again in a few minutes.`);
  const endpoint = normalizeEndpoint(account.endpoint);

  const existing = s.store.findByEndpoint(endpoint);
  const scripted = !!(args.subscriptionId && args.account && args.label);
  if (existing && !scripted) {
    const answer = await vscode.window.showWarningMessage(
      `"${existing.label}" already connects to ${endpoint}.`,
      { modal: true, detail: 'Replace it with an Entra ID connection from Azure? Its chats and webhook signing secrets stay.' },
      'Replace',
    );
    if (answer !== 'Replace') return undefined;
  }
  const label = args.label ?? (await askLabel(`${TITLE}: name`, existing?.label ?? account.name));
  if (label === undefined) return undefined;

  const info: ConnectionInfo = {
    id: existing?.id ?? newConnectionId(),
    label,
    endpoint,
    auth: 'entraId',
    tokenSource,
    // The token must come from the resource's tenant, which is its subscription's.
    tenantId: chosen.tenantId ?? subscription.tenantId,
    armId: account.id,
    ...(existing?.apiVersion ? { apiVersion: existing.apiVersion } : {}),
  };
  await s.store.save(info);
  if (existing?.auth === 'apiKey') await s.store.deleteApiKey(existing.id);
  logInfo(`Added connection "${info.label}" (${info.endpoint}) from Azure: ${account.id}, Entra ID via ${tokenSource}.`);
  return info;
}
