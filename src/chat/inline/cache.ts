/**
 * Suggestions already received, keyed by what their request depended on (the deployment, the
 * file, the text after the cursor) and found by the text before it: typing the characters a
 * suggestion shows leaves its rest to show with no new request, and Backspace back to where a
 * suggestion was made shows it again. Open tabs are left out of the key: a tab opened elsewhere
 * does not make the same spot worth paying for again.
 */

interface Entry {
  key: string;
  prefix: string;
  text: string;
}

/** Past this many characters before the cursor a suggestion is not kept (the entries hold whole prefixes). */
const MAX_PREFIX_CHARS = 200_000;

export class SuggestionCache {
  /** Oldest first. */
  private entries: Entry[] = [];

  constructor(private readonly capacity = 30) {}

  static key(parts: { connection: string; deployment: string; path: string; languageId: string; suffix: string }): string {
    return JSON.stringify([parts.connection, parts.deployment, parts.path, parts.languageId, parts.suffix]);
  }

  /** Keeps a suggestion ('' too: the model had nothing for this spot, and asking again costs the same). */
  put(key: string, prefix: string, text: string): void {
    if (prefix.length > MAX_PREFIX_CHARS) return;
    this.entries = this.entries.filter((e) => !(e.key === key && e.prefix === prefix));
    this.entries.push({ key, prefix, text });
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  /**
   * What is left to show at `prefix`: the rest of a suggestion the user typed part of (the newest
   * first), or one made right here (possibly ''); undefined when none applies.
   */
  get(key: string, prefix: string): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.key !== key || !prefix.startsWith(e.prefix)) continue;
      const typed = prefix.length - e.prefix.length;
      if (typed === 0) return e.text;
      if (typed < e.text.length && e.text.startsWith(prefix.slice(e.prefix.length))) return e.text.slice(typed);
    }
    return undefined;
  }

  clear(): void {
    this.entries = [];
  }
}
