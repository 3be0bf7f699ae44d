/**
 * Azure clouds: where to sign in, where Resource Manager lives and which scopes to ask for.
 * Public, US Government and China are built in; "Custom" covers private clouds (and the tests'
 * local identity provider).
 */

import * as l10n from '@vscode/l10n';
import { isLoopbackHost } from '../service/loopback';

export type CloudName = 'AzureCloud' | 'AzureUSGovernment' | 'AzureChinaCloud' | 'Custom';

export interface CloudEnvironment {
  name: CloudName;
  /** Entra ID authority host, e.g. https://login.microsoftonline.com. */
  authorityHost: string;
  /** Resource Manager endpoint, e.g. https://management.azure.com. */
  resourceManagerEndpoint: string;
  managementScope: string;
  /** Data-plane scopes in order of preference: the first is asked for, the next ones are fallbacks. */
  dataPlaneScopes: string[];
  /** VS Code's built-in provider for this cloud's accounts. */
  vscodeProviderId: 'microsoft' | 'microsoft-sovereign-cloud';
  /** Whether Entra ID's instance discovery knows the authority (false for custom authorities). */
  knownAuthority: boolean;
}

export const CLOUDS: Record<Exclude<CloudName, 'Custom'>, CloudEnvironment> = {
  AzureCloud: {
    name: 'AzureCloud',
    authorityHost: 'https://login.microsoftonline.com',
    resourceManagerEndpoint: 'https://management.azure.com',
    managementScope: 'https://management.azure.com/.default',
    // Current docs ask for ai.azure.com; resources and tenants that predate it know only cognitiveservices.
    dataPlaneScopes: ['https://ai.azure.com/.default', 'https://cognitiveservices.azure.com/.default'],
    vscodeProviderId: 'microsoft',
    knownAuthority: true,
  },
  AzureUSGovernment: {
    name: 'AzureUSGovernment',
    authorityHost: 'https://login.microsoftonline.us',
    resourceManagerEndpoint: 'https://management.usgovcloudapi.net',
    managementScope: 'https://management.usgovcloudapi.net/.default',
    dataPlaneScopes: ['https://cognitiveservices.azure.us/.default'],
    vscodeProviderId: 'microsoft-sovereign-cloud',
    knownAuthority: true,
  },
  AzureChinaCloud: {
    name: 'AzureChinaCloud',
    authorityHost: 'https://login.chinacloudapi.cn',
    resourceManagerEndpoint: 'https://management.chinacloudapi.cn',
    managementScope: 'https://management.chinacloudapi.cn/.default',
    dataPlaneScopes: ['https://cognitiveservices.azure.cn/.default'],
    vscodeProviderId: 'microsoft-sovereign-cloud',
    knownAuthority: true,
  },
};

/** The `aoaiWorkbench.customCloud` setting. */
export interface CustomCloudSetting {
  authorityHost?: unknown;
  resourceManagerEndpoint?: unknown;
  managementScope?: unknown;
  dataPlaneScopes?: unknown;
}

export class CloudConfigError extends Error {
  override readonly name = 'CloudConfigError';
}

function httpsUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value.trim()) {
    throw new CloudConfigError(l10n.t('Set "{0}" to an https:// URL, or choose a built-in cloud in "{1}".', `aoaiWorkbench.customCloud.${field}`, 'aoaiWorkbench.cloud'));
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new CloudConfigError(l10n.t('"{0}" is not a valid URL: {1}', `aoaiWorkbench.customCloud.${field}`, value));
  }
  if (url.protocol !== 'https:' && !(field === 'resourceManagerEndpoint' && url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new CloudConfigError(l10n.t('"{0}" must use https:// (got {1}).', `aoaiWorkbench.customCloud.${field}`, `${url.protocol}//`));
  }
  return value.trim().replace(/\/+$/, '');
}

/** The cloud named by the settings; a custom one is checked field by field with a message that says what to fix. */
export function resolveCloud(name: unknown, custom?: CustomCloudSetting): CloudEnvironment {
  if (name === undefined || name === null || name === '') return CLOUDS.AzureCloud;
  if (name !== 'Custom') {
    // Own names only: `toString` or `constructor` is no cloud.
    const builtIn = typeof name === 'string' && Object.hasOwn(CLOUDS, name) ? CLOUDS[name as keyof typeof CLOUDS] : undefined;
    if (!builtIn) throw new CloudConfigError(l10n.t('Unknown cloud "{0}" in "{1}". Use AzureCloud, AzureUSGovernment, AzureChinaCloud or Custom.', String(name), 'aoaiWorkbench.cloud'));
    return builtIn;
  }
  const c = custom ?? {};
  const resourceManagerEndpoint = httpsUrl(c.resourceManagerEndpoint, 'resourceManagerEndpoint');
  const scopes = Array.isArray(c.dataPlaneScopes) ? c.dataPlaneScopes.filter((s): s is string => typeof s === 'string' && s.length > 0) : [];
  return {
    name: 'Custom',
    authorityHost: httpsUrl(c.authorityHost, 'authorityHost'),
    resourceManagerEndpoint,
    managementScope: typeof c.managementScope === 'string' && c.managementScope ? c.managementScope : `${resourceManagerEndpoint}/.default`,
    dataPlaneScopes: scopes.length ? scopes : CLOUDS.AzureCloud.dataPlaneScopes,
    vscodeProviderId: 'microsoft-sovereign-cloud',
    knownAuthority: false,
  };
}
