/**
 * Connections to a local emulator live in the user's connection list, which every VS Code window
 * shares, while each emulator runs inside one window. A window may drop only a local connection
 * whose emulator it stopped itself, or one whose emulator no longer answers (its window closed).
 */

export interface LocalConnection {
  id: string;
  endpoint: string;
  local?: boolean;
}

/**
 * The local connections to remove. `own` is the address of the emulator this window runs (kept);
 * `answers` tells whether the emulator at a connection's address still serves it.
 */
export async function localConnectionsToDrop<T extends LocalConnection>(list: T[], own: string | undefined, answers: (c: T) => Promise<boolean>): Promise<T[]> {
  const others = list.filter((c) => c.local && c.endpoint !== own);
  const alive = await Promise.all(others.map((c) => answers(c).catch(() => false)));
  return others.filter((_, i) => !alive[i]);
}

/** Whether an emulator serves `endpoint` with this key: its model list answers 200 within `timeoutMs`. */
export async function emulatorAnswers(endpoint: string, apiKey: string | undefined, timeoutMs = 2000): Promise<boolean> {
  if (!apiKey) return false;
  try {
    const res = await fetch(`${endpoint.replace(/\/+$/, '')}/openai/v1/models`, { headers: { 'api-key': apiKey }, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}
