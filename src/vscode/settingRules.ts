/**
 * How a setting's value is chosen from what VS Code holds for it (no `vscode` import: tested in
 * plain Node). User-only settings skip workspace and folder values; numbers with limits are
 * clamped into them, with one log line saying what was used instead, so a settings file cannot
 * make a month-old captured delivery verify (toleranceSeconds: 1e9) or the event store grow without
 * bound (maxStoredEvents).
 */
import { SETTING_DEFAULTS, PREFIX, type SettingKey, type SettingValues } from './contributions';

/**
 * Who chooses each setting, with the answer to one question beside it: can a repository's
 * `.vscode/settings.json` send a token, a secret, a binary, a request or the user's data somewhere
 * the user did not choose (or weaken what guards it)? Yes: 'user', only the user's settings count
 * (package.json scope machine or application). No: 'folder', a folder may set it too. Every
 * setting is here: one added without an answer does not compile.
 */
export const SETTING_CHOOSER: Record<SettingKey, 'user' | 'folder'> = {
  // Yes: each entry's endpoint gets the stored key or an Entra token.
  connections: 'user',
  // No: a query parameter (encoded) on requests to the user's own connection; it changes no host.
  apiVersion: 'folder',
  // No: how long a request to the user's own connection may take (5 s at least), not where it goes.
  requestTimeoutSeconds: 'folder',
  // Yes: the sign-in authority and the Resource Manager host get the management token.
  cloud: 'user',
  customCloud: 'user',
  // No: how many rows a list shows.
  pageSize: 'folder',
  // Yes: it picks which company's relay carries every delivery (signed, the user's data) and which
  // binary on PATH runs (cloudflared, ngrok, devtunnel); a repository must not swap the user's choice.
  'tunnel.provider': 'user',
  // Yes: where deliveries are said to arrive, where cloudflared is downloaded from and run, which
  // relay server carries deliveries.
  'tunnel.manualUrl': 'user',
  'tunnel.cloudflaredDownloadUrl': 'user',
  'tunnel.localtunnelHost': 'user',
  // Yes: a name the repository knows is a public URL anyone can send to.
  'tunnel.localtunnelSubdomain': 'user',
  // No: a port on loopback, on this machine; ignored in an untrusted folder.
  'webhooks.port': 'folder',
  // Yes, they weaken the guard: a month-old captured delivery would verify; the store would grow without bound.
  'webhooks.toleranceSeconds': 'user',
  'webhooks.maxStoredEvents': 'user',
  // Yes: every verified delivery (the user's data) is sent there.
  'webhooks.forwardTo': 'user',
  // Yes, as forwardTo: each route sends every verified delivery of its types there (and only to
  // this machine: checkRoutes skips any other host).
  'webhooks.routes': 'user',
  'webhooks.debugForwardToAnyHost': 'user',
  // No: it names a folder inside the workspace folder (".." and absolute paths are refused, and a link
  // out of the workspace is not written through: fixtures/folder.ts), where fixtures are written; what is
  // sent, signed with which secret, and where, stays the user's.
  'webhooks.fixturesFolder': 'folder',
  // Yes: the realtime model that speaks for the user to a caller would follow the repository's
  // instructions (ask the caller for data, say anything in the user's name).
  'calls.instructions': 'user',
  // Yes: the usage log is the user's, shared by every window: a folder must not empty it nor price it.
  'usage.maxAgeDays': 'user',
  'usage.maxSizeMB': 'user',
  'usage.prices': 'user',
  // Yes: the deployment is where the code being typed goes; a repository must not pick it, nor turn
  // suggestions on where the user turned them off, nor send untitled documents.
  'inline.connection': 'user',
  'inline.deployment': 'user',
  'inline.enabled': 'user',
  'inline.untitled': 'user',
  // No: how long to wait after a keystroke; every request still goes to the user's own deployment.
  'inline.debounceMs': 'folder',
  // A folder may add patterns, never remove one: its list is added to the user's (WIDEN_ONLY_SETTINGS),
  // so a repository can keep its own generated or secret files out but cannot send a .env.
  'inline.exclude': 'folder',
  // Yes: what the user agreed to spend; a repository must not raise it.
  'inline.maxRequestsPerHour': 'user',
  'inline.maxTokensPerDay': 'user',
  // Yes: where every turn's trace is sent; and whether prompts and replies go into traces at all.
  'telemetry.otlpEndpoint': 'user',
  'telemetry.captureContent': 'user',
  // No: how many traces this computer keeps (bounded below).
  'telemetry.maxTraces': 'folder',
};

/** Lists a workspace or folder may only add to: the user's (or the default) list, then theirs. */
export const WIDEN_ONLY_SETTINGS: ReadonlySet<SettingKey> = new Set<SettingKey>(['inline.exclude']);

/** Settings whose workspace and folder values are ignored. */
export const USER_ONLY_SETTINGS: ReadonlySet<SettingKey> = new Set(
  (Object.entries(SETTING_CHOOSER) as Array<[SettingKey, 'user' | 'folder']>).filter(([, by]) => by === 'user').map(([key]) => key),
);

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
  // Past 2 s a suggestion comes too late to help.
  'inline.debounceMs': { min: 0, max: 2000 },
  'inline.maxRequestsPerHour': { min: 1, max: 100_000 },
  'inline.maxTokensPerDay': { min: 1000, max: 1_000_000_000 },
  'telemetry.maxTraces': { min: 1, max: 5000 },
};

function widened<T>(inspected: InspectedSetting<T>, fallback: T): T {
  const lists = [inspected.globalValue ?? fallback, inspected.workspaceValue, inspected.workspaceFolderValue].filter(Array.isArray) as unknown[][];
  return [...new Set(lists.flat().filter((v) => typeof v === 'string'))] as T;
}

export function resolveSetting<K extends SettingKey>(
  key: K,
  inspected: InspectedSetting<SettingValues[K]> = {},
  warn: (message: string) => void = () => undefined,
): SettingValues[K] {
  const fallback = inspected.defaultValue ?? SETTING_DEFAULTS[key];
  if (WIDEN_ONLY_SETTINGS.has(key)) return widened(inspected, fallback);
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
