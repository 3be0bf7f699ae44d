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
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { isNode } from './args';
import { confirmed, withCancellableProgress } from './registry';

/** Arguments for scripts and tests: every step given means no UI. */
export interface AddFromAzureArgs {
  tokenSource?: TokenSourceKind;
  tenantId?: string;
  subscriptionId?: string;
  /** ARM id or name of the account. */
  account?: string;
  label?: string;
}

const LAST_SOURCE = 'aoaiWorkbench.lastTokenSource';

type SubscriptionPick = vscode.QuickPickItem & { subscription?: Subscription; otherTenant?: true };

async function chooseSubscription(
  s: Services,
  tokenSource: TokenSourceKind,
  args: AddFromAzureArgs,
): Promise<{ subscription: Subscription; tenantId?: string } | undefined> {
  let tenantId = args.tenantId;
  for (;;) {
    const listing = tenantId ? vscode.l10n.t('Listing your subscriptions in {0}…', tenantId) : vscode.l10n.t('Listing your subscriptions…');
    const subs = await withCancellableProgress(listing, (signal) => s.clients.arm(tokenSource, tenantId).listSubscriptions(signal));
    if (args.subscriptionId) {
      const subscription = subs.find((x) => x.subscriptionId.toLowerCase() === args.subscriptionId!.toLowerCase());
      if (!subscription) {
        throw new Error(
          tenantId
            ? vscode.l10n.t('The subscription {0} is not visible to this identity in tenant {1}.', args.subscriptionId, tenantId)
            : vscode.l10n.t('The subscription {0} is not visible to this identity.', args.subscriptionId),
        );
      }
      return { subscription, tenantId };
    }
    const tenant = (id: string | undefined) => (id ? vscode.l10n.t('Tenant {0}', id) : undefined);
    const items: SubscriptionPick[] = subs
      .filter((x) => !x.state || x.state === 'Enabled')
      // Names and ids are Azure's (anyone who shares a subscription or resource with you names it): as text.
      .map((x) => ({ label: `$(key) ${plainLine(x.displayName)}`, description: plainLine(x.subscriptionId), detail: tenant(x.tenantId && plainLine(x.tenantId)), subscription: x }));
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      {
        label: `$(organization) ${vscode.l10n.t('Another tenant…')}`,
        description: vscode.l10n.t('Sign in to the tenant of a resource that is not listed'),
        otherTenant: true,
      },
    );
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Add Connection from Azure: subscription'),
      placeHolder: subs.length
        ? vscode.l10n.t('Choose the subscription of your Azure OpenAI resource')
        : vscode.l10n.t('No enabled subscription in this tenant: try another tenant'),
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!pick) return undefined;
    if (pick.subscription) return { subscription: pick.subscription, tenantId };
    const next = await askTenant(vscode.l10n.t('Add Connection from Azure: tenant'), tenantId);
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
  const listing = vscode.l10n.t('Listing Azure OpenAI resources in {0}…', sub.displayName);
  const accounts = await withCancellableProgress(listing, (signal) => s.clients.arm(tokenSource, tenantId).listAccounts(sub.subscriptionId, signal));
  if (args.account) {
    const want = args.account.toLowerCase();
    const account = accounts.find((a) => a.id.toLowerCase() === want || a.name.toLowerCase() === want);
    if (!account) throw new Error(vscode.l10n.t('No Azure OpenAI or AI Services resource "{0}" in {1}.', args.account, sub.displayName));
    return account;
  }
  if (accounts.length === 0) {
    const none = [
      vscode.l10n.t('There is no Azure OpenAI or AI Services resource in "{0}" that you can see.', sub.displayName),
      vscode.l10n.t('Create one in the Azure portal, or run the command again and pick another subscription.'),
    ];
    void vscode.window.showInformationMessage(plainLine(none.join(' '), 1000));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    accounts.map((a) => ({
      label: `$(cloud) ${plainLine(a.name)}`,
      description: plainLine([a.kind, a.location].filter(Boolean).join(' · ')),
      detail: plainLine(`${vscode.l10n.t('Resource group {0}', a.resourceGroup)}${a.endpoint ? ` · ${a.endpoint}` : ''}`, 300),
      account: a,
    })),
    {
      title: vscode.l10n.t('Add Connection from Azure: resource'),
      placeHolder: vscode.l10n.t('Choose the Azure OpenAI or AI Services resource'),
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return pick?.account;
}

export async function addConnectionFromAzure(s: Services, arg: unknown): Promise<ConnectionInfo | undefined> {
  const args: AddFromAzureArgs = arg && typeof arg === 'object' && !isNode(arg) ? (arg as AddFromAzureArgs) : {};
  const tokenSource =
    args.tokenSource ?? (await pickTokenSource(vscode.l10n.t('Add Connection from Azure: sign in with'), s.context.globalState.get<TokenSourceKind>(LAST_SOURCE)));
  if (!tokenSource) return undefined;
  await s.context.globalState.update(LAST_SOURCE, tokenSource);

  const chosen = await chooseSubscription(s, tokenSource, args);
  if (!chosen) return undefined;
  const { subscription } = chosen;
  const account = await chooseAccount(s, tokenSource, chosen.tenantId, subscription, args);
  if (!account) return undefined;
  if (!account.endpoint) {
    throw new Error(vscode.l10n.t('"{0}" has no endpoint in Resource Manager yet. If it is still being created, try again in a few minutes.', account.name));
  }
  const endpoint = normalizeEndpoint(account.endpoint);

  const existing = s.store.findByEndpoint(endpoint);
  const scripted = !!(args.subscriptionId && args.account && args.label);
  if (existing && !scripted) {
    const detail = vscode.l10n.t('Replace it with an Entra ID connection from Azure? Its chats and webhook signing secrets stay.');
    if (!(await confirmed(vscode.l10n.t('"{0}" already connects to {1}.', existing.label, endpoint), vscode.l10n.t('Replace'), detail))) return undefined;
  }
  const label = args.label ?? (await askLabel(vscode.l10n.t('Add Connection from Azure: name'), existing?.label ?? account.name));
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
