/**
 * A listener in a process of its own, wired as the extension wires it (the events' owner keeps ids
 * and events on disk), so a flood test can measure its memory alone. Driven over IPC by
 * test/support/flood.ts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookListener } from '../../src/webhooks/receive/listener';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';

const [dir, secret] = process.argv.slice(2);
const paths = { eventsPath: join(dir, 'webhook-events.jsonl'), idsPath: join(dir, 'webhook-ids.txt') };

async function main(): Promise<void> {
  const events = new WebhookEvents(paths);
  await events.load();
  const listener = new WebhookListener({
    secrets: () => [{ endpointId: 'we_flood', secret }],
    // Four times the default body cap: the flood's bodies (up to 1 MiB) are read and rejected, not refused at the head.
    maxBodyBytes: 1024 * 1024,
    dedupe: events.dedupe,
    onDelivery: (r) => events.record(r),
  });
  await listener.start();
  process.on('message', async (m: string) => {
    if (m !== 'stats') return;
    await listener.stop();
    await events.flush();
    // What a restart would show.
    const reloaded = new WebhookEvents(paths);
    await reloaded.load();
    process.send!({
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      storeBytes: statSync(paths.eventsPath).size,
      records: reloaded.list().map((r) => ({ webhookId: r.webhookId, verdict: r.verdict, count: r.count, duplicates: r.duplicates?.count })),
    });
  });
  process.send!({ port: listener.port });
}

void main();
