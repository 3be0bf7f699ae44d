/**
 * How a setting's value is chosen from what VS Code holds for it (no `vscode` import: tested in
 * plain Node). User-only settings skip workspace and folder values; numbers with limits are
 * clamped into them, with one log line saying what was used instead, so a settings file cannot
 * make a month-old captured delivery verify (toleranceSeconds: 1e9) or the event store grow without
 * bound (maxStoredEvents).
 */
import { SETTING_DEFAULTS, USER_ONLY_SETTINGS, PREFIX, type SettingKey, type SettingValues } from './contributions';

/** What `WorkspaceConfiguration.inspect` returns, the parts read here. */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** Bounds of numeric settings, as package.json declares them (`minimum`, `maximum`). */
export const SETTING_LIMITS: Partial<Record<SettingKey, { min: number; max: number }>> = {
  // An hour covers any clock skew worth testing; the service signs at send time.
  'webhooks.toleranceSeconds': { min: 1, max: 3600 },
  // Each event keeps up to 256 KiB of body: 10,000 stays within the listener's memory bounds.
  'webhooks.maxStoredEvents': { min: 10, max: 10_000 },
  'webhooks.port': { min: 0, max: 65535 },
  // The usage log's caps: a month's chart needs 30 days; a gigabyte is far past a busy year.
  'usage.maxAgeDays': { min: 1, max: 3650 },
  'usage.maxSizeMB': { min: 1, max: 1024 },
};

export function resolveSetting<K extends SettingKey>(
  key: K,
  inspected: InspectedSetting<SettingValues[K]> = {},
  warn: (message: string) => void = () => undefined,
): SettingValues[K] {
  const fallback = inspected.defaultValue ?? SETTING_DEFAULTS[key];
  const value = USER_ONLY_SETTINGS.has(key)
    ? (inspected.globalValue ?? fallback)
    : (inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue ?? fallback);
  const limits = SETTING_LIMITS[key];
  if (!limits) return value;
  const name = `${PREFIX}.${key}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    warn(`"${name}" is ${JSON.stringify(value)}, not a number: ${String(fallback)} is used.`);
    return fallback;
  }
  if (value > limits.max || value < limits.min) {
    const used = Math.min(limits.max, Math.max(limits.min, value));
    warn(`"${name}" is ${value}, ${value > limits.max ? `above its maximum of ${limits.max}` : `below its minimum of ${limits.min}`}: ${used} is used.`);
    return used as SettingValues[K];
  }
  return value;
}
