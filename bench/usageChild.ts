/**
 * One side of the usage aggregation bench, in a process of its own so that its peak memory is
 * its own. `cold` and `warm` take the usage view's own path (`UsageLog.summarize`): `cold` with no
 * day summary beside the log (the first open: it reads every line and saves the summary), `warm`
 * with one (it reads the lines after it). `reference` loads every record with JSON.parse into an
 * array and then reduces it with the same aggregator. Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { UsageAggregator, type AggregateOptions } from '../src/usage/aggregate';
import { ianaZone } from '../src/usage/days';
import type { UsageRecord } from '../src/usage/record';
import { UsageLog } from '../src/usage/usageLog';

async function main(): Promise<void> {
  const [mode, path, now] = process.argv.slice(2);
  const options: AggregateOptions = { now: Number(now), zone: ianaZone('Europe/Berlin') };
  // A window opens its log once (counting its lines): not part of showing the view.
  const log = mode === 'reference' ? undefined : await UsageLog.open(path, undefined, () => Number(now));
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let summary;
  if (log) summary = await log.summarize(options);
  else {
    const records: UsageRecord[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as UsageRecord);
      } catch {
        /* a torn line */
      }
    }
    const agg = new UsageAggregator(options);
    for (const r of records) agg.add(r);
    summary = agg.summary();
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  // maxRSS: the most this process ever held (KiB), module loading included on every side.
  console.log(JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakMB: process.resourceUsage().maxRSS / 1024,
    records: summary.records,
    summary: JSON.stringify(summary.deployments),
  }));
}

void main();
