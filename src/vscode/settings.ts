/** Typed access to the `aoaiWorkbench.*` settings: reads with package.json's defaults, writes, change events. */
import * as vscode from 'vscode';
import { PREFIX, type ContextKey, type SettingKey, type SettingValues } from './contributions';
import { log } from './log';
import { resolveSetting } from './settingRules';

/**
 * Settings of plain values (strings, numbers, booleans) as last read, until the configuration
 * changes. Each `getConfiguration(...).inspect` builds VS Code's merged configuration anew, some
 * 50 KB of garbage a read, and the listener asks for its forward target on every delivery (issue
 * #25: a burst of deliveries grew the extension host by tens of MB). Objects and arrays are read
 * each time, so no caller can change what another one reads.
 */
const plainValues = new Map<SettingKey, unknown>();
// Subscribed as this module loads, before any listener of ours (they subscribe at activation), so a
// listener that reads a setting when the configuration changes reads the new value.
vscode.workspace.onDidChangeConfiguration(() => plainValues.clear());

export function setting<K extends SettingKey>(key: K): SettingValues[K] {
  if (plainValues.has(key)) return plainValues.get(key) as SettingValues[K];
  // The scope in package.json is not enforced on values already in a workspace file: resolveSetting skips them.
  const values = vscode.workspace.getConfiguration(PREFIX).inspect<SettingValues[K]>(key);
  const value = resolveSetting(key, values, warnOnce);
  if (value === null || typeof value !== 'object') plainValues.set(key, value);
  return value;
}

/** A value out of bounds is said once per value, not on every read. */
const warned = new Set<string>();
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  log().warn(message);
}

/** A string setting, or undefined when it is empty (an empty string means "not set"). */
export function optionalSetting<K extends SettingKey>(key: K): Exclude<SettingValues[K], ''> | undefined {
  return (setting(key) || undefined) as Exclude<SettingValues[K], ''> | undefined;
}

/** Settings written by the extension are user settings, the same in every workspace. */
export function updateSetting<K extends SettingKey>(key: K, value: SettingValues[K]): Thenable<void> {
  return vscode.workspace.getConfiguration(PREFIX).update(key, value, vscode.ConfigurationTarget.Global);
}

/** Calls `listener` when any of `keys` changes. */
export function onDidChangeSettings(keys: SettingKey[], listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (keys.some((k) => e.affectsConfiguration(`${PREFIX}.${k}`))) listener();
  });
}

export function setContext(key: ContextKey, value: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
