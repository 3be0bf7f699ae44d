/**
 * How the core's outgoing calls leave (src/service/proxy.ts): through the extension host's `fetch`,
 * which VS Code patches with its own proxy support (OS proxy, PAC, Kerberos, http.proxySupport,
 * system certificates), so every non-loopback call goes where VS Code's own calls go. The proxy
 * settings read here only name the proxy in messages. User settings only: a workspace must not
 * decide where a token goes.
 */
import * as vscode from 'vscode';
import type { ProxySettings } from '../service/proxyRules';

function userValue<T>(section: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const i = section.inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue;
}

/** As last read, until the configuration changes (a forward asks on every delivery: see settings.ts). */
let cached: ProxySettings | undefined;
vscode.workspace.onDidChangeConfiguration(() => (cached = undefined));

/** Frozen: every caller shares the one read. */
export function proxySettings(): ProxySettings {
  cached ??= Object.freeze(readProxySettings());
  return cached;
}

function readProxySettings(): ProxySettings {
  const http = vscode.workspace.getConfiguration('http');
  // proxySupport "off": VS Code itself uses no proxy; the environment's HTTPS_PROXY still applies.
  const off = userValue<string>(http, 'proxySupport') === 'off';
  return {
    hostFetch: (input, init) => globalThis.fetch(input, init),
    url: off ? undefined : userValue<string>(http, 'proxy') || undefined,
    strictSSL: userValue<boolean>(http, 'proxyStrictSSL') ?? true,
    noProxy: Object.freeze([...(userValue<string[]>(http, 'noProxy') ?? [])]) as string[],
    systemCertificates: userValue<boolean>(http, 'systemCertificates') ?? true,
  };
}
