/**
 * Numbers, times and dates as the extension host writes them, and text in order, without ICU.
 * The first `toLocaleString`, `localeCompare` or `Intl` call makes Node map about 10 MB of its ICU
 * data into the extension host, which VS Code's own code there does not touch (issue #25: the
 * host's memory beside a minimal extension). So the host writes locale-neutral forms: digits
 * grouped by commas, 24-hour times, ISO dates; the lint rule `no-restricted-properties` keeps
 * the locale calls out of src/ (the pages, src/webview/, run in a browser and keep them).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** 1234567 → "1,234,567"; 1234.5 → "1,234.5" (at most 3 decimals, rounded), as `toLocaleString('en')` writes them. */
export function groupDigits(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return String(n);
  const [int, frac] = Math.abs(n).toFixed(3).split('.') as [string, string];
  const decimals = frac.replace(/0+$/, '');
  const digits = int.replace(/\B(?=(\d{3})+$)/g, ',') + (decimals ? `.${decimals}` : '');
  return n < 0 ? `-${digits}` : digits;
}

/** The local time of day of an instant (ms), 24-hour: "14:05:09". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The local date of an instant (ms): "2026-11-24". */
export function isoDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The local date and time of an instant (ms): "2026-11-24 14:05:09", or "2026-11-24 14:05" without seconds. */
export function dateTime(ms: number, seconds = true): string {
  const time = clockTime(ms);
  return `${isoDate(ms)} ${seconds ? time : time.slice(0, 5)}`;
}

/** An order for names people read: case-insensitive, then by code point (ties broken by case), so a sort is stable across machines. */
export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
