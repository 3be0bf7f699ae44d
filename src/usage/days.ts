/**
 * Calendar days in the user's time zone: "today" starts at the user's midnight, and a day across
 * a daylight-saving change is 23 or 25 hours long. A zone is a function from an instant to its
 * offset from UTC, so tests can pass any zone without touching the process's TZ (test/support/zones.ts).
 */

/** Minutes to add to UTC to get the local time at `epochMs` (Berlin in summer: 120). */
export type ZoneOffset = (epochMs: number) => number;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The zone of this process (the TZ variable, or the system's). */
export const localZone: ZoneOffset = (epochMs) => -new Date(epochMs).getTimezoneOffset();

/** The local calendar date of an instant, as "YYYY-MM-DD". */
export function dayLabel(epochMs: number, zone: ZoneOffset = localZone): string {
  return new Date(epochMs + zone(epochMs) * MINUTE_MS).toISOString().slice(0, 10);
}

/** The instant the local day `label` ("YYYY-MM-DD") starts. */
export function startOfDay(label: string, zone: ZoneOffset = localZone): number {
  const wall = Date.parse(`${label}T00:00:00Z`);
  // The offset at midnight may differ from the one a few hours off: ask twice.
  const guess = wall - zone(wall) * MINUTE_MS;
  return wall - zone(guess) * MINUTE_MS;
}

/**
 * The last `count` local days up to the one holding `now`, oldest first: their labels and the
 * instants they start. `starts[count]` is the start of tomorrow.
 */
export function lastDays(now: number, count: number, zone: ZoneOffset = localZone): { labels: string[]; starts: number[] } {
  const today = Date.parse(`${dayLabel(now, zone)}T00:00:00Z`);
  const labels: string[] = [];
  const starts: number[] = [];
  for (let i = count - 1; i >= -1; i--) {
    const label = new Date(today - i * DAY_MS).toISOString().slice(0, 10);
    starts.push(startOfDay(label, zone));
    if (i >= 0) labels.push(label);
  }
  return { labels, starts };
}
