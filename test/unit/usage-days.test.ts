/**
 * Calendar days in the user's time zone: where "today" starts, days of 23 and 25 hours at the
 * daylight-saving changes, zones east and west of UTC, and the process's own zone (TZ) as the default.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dayLabel, lastDays, localZone, startOfDay } from '../../src/usage/days';
import { ianaZone } from '../support/zones';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe('usage days', () => {
  it('knows the offset of a zone at an instant, summer and winter, east and west, in quarter hours', () => {
    const berlin = ianaZone('Europe/Berlin');
    assert.equal(berlin(at('2026-01-15T12:00:00Z')), 60);
    assert.equal(berlin(at('2026-07-15T12:00:00Z')), 120);
    assert.equal(ianaZone('America/New_York')(at('2026-01-15T12:00:00Z')), -300);
    assert.equal(ianaZone('Asia/Kolkata')(at('2026-01-15T12:00:00.999Z')), 330);
    assert.equal(ianaZone('Pacific/Chatham')(at('2026-01-15T12:00:00Z')), 825);
    assert.equal(ianaZone('UTC')(at('2026-01-15T23:59:59Z')), 0);
    assert.throws(() => ianaZone('Mars/Olympus'), RangeError);
  });

  it('labels an instant with the date where the user is', () => {
    const instant = at('2026-03-10T23:30:00Z');
    assert.equal(dayLabel(instant, ianaZone('UTC')), '2026-03-10');
    assert.equal(dayLabel(instant, ianaZone('Pacific/Auckland')), '2026-03-11');
    assert.equal(dayLabel(at('2026-03-11T03:30:00Z'), ianaZone('America/Los_Angeles')), '2026-03-10');
  });

  it('starts a day at the local midnight, also on the days the clocks change', () => {
    const berlin = ianaZone('Europe/Berlin');
    assert.equal(startOfDay('2026-03-29', berlin), at('2026-03-28T23:00:00Z'));
    assert.equal(startOfDay('2026-03-30', berlin), at('2026-03-29T22:00:00Z'));
    assert.equal(startOfDay('2026-10-25', berlin), at('2026-10-24T22:00:00Z'));
    assert.equal(startOfDay('2026-10-26', berlin), at('2026-10-25T23:00:00Z'));
    // Auckland leaves summer time at 03:00 on 5 April: that day starts at 00:00 NZDT (+13), the next at 00:00 NZST (+12).
    const auckland = ianaZone('Pacific/Auckland');
    assert.equal(startOfDay('2026-04-05', auckland), at('2026-04-04T11:00:00Z'));
    assert.equal(startOfDay('2026-04-06', auckland), at('2026-04-05T12:00:00Z'));
  });

  it('gives the last days oldest first with their starts: 23 hours in spring, 25 in autumn', () => {
    const ny = ianaZone('America/New_York');
    const spring = lastDays(at('2026-03-09T12:00:00Z'), 3, ny);
    assert.deepEqual(spring.labels, ['2026-03-07', '2026-03-08', '2026-03-09']);
    assert.deepEqual(spring.starts.slice(1).map((s, i) => (s - spring.starts[i]) / H), [24, 23, 24]);
    const autumn = lastDays(at('2026-11-02T04:30:00Z'), 3, ny);
    assert.deepEqual(autumn.labels, ['2026-10-30', '2026-10-31', '2026-11-01']);
    assert.deepEqual(autumn.starts.slice(1).map((s, i) => (s - autumn.starts[i]) / H), [24, 24, 25]);
    assert.equal(autumn.starts[0], at('2026-10-30T04:00:00Z'));
  });

  it('uses the zone of the process (TZ) when none is given', () => {
    const now = at('2026-11-01T12:00:00Z');
    for (const tz of ['America/New_York', 'Asia/Tokyo', 'Europe/Berlin']) {
      const script = `const d = require('./src/usage/days.ts'); console.log(JSON.stringify(d.lastDays(${now}, 3)));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, TZ: tz }, encoding: 'utf8' });
      assert.equal(child.status, 0, child.stderr);
      assert.deepEqual(JSON.parse(child.stdout), lastDays(now, 3, ianaZone(tz)), tz);
    }
    assert.equal(localZone(now), -new Date(now).getTimezoneOffset());
  });
});
