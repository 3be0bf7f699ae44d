/** Time zones by IANA name for the usage tests (the product keeps to `localZone`). */
import type { ZoneOffset } from '../../src/usage/days';

const MINUTE_MS = 60_000;

/** An IANA zone ("Europe/Berlin"); throws a RangeError for a name Intl does not know. */
export function ianaZone(timeZone: string): ZoneOffset {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  return (epochMs) => {
    const p: Record<string, number> = {};
    for (const part of format.formatToParts(epochMs)) p[part.type] = Number(part.value);
    const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    return Math.round((asUtc - Math.floor(epochMs / MINUTE_MS) * MINUTE_MS) / MINUTE_MS);
  };
}
