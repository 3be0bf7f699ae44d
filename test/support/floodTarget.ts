/**
 * A listener in a process of its own, wired as the extension wires it (ids and events on disk),
 * so a flood test can measure its memory alone. Driven over IPC by test/support/flood.ts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookListener } from '../../src/webhooks/listener';
import { EventStore, FileDedupeStore } from '../../src/webhooks/stores';

const [dir, secret] = process.argv.slice(2);
const eventsPath = join(dir, 'webhook-events.jsonl');

async function main(): Promise<void> {
  const events = new EventStore(eventsPath);
  await events.load();
  const listener = new WebhookListener({
    secrets: () => [{ endpointId: 'we_flood', secret }],
    // Four times the default body cap: the flood's bodies (up to 1 MiB) are read and rejected, not refused at the head.
    maxBodyBytes: 1024 * 1024,
    dedupe: new FileDedupeStore(join(dir, 'webhook-ids.txt')),
    onDelivery: (r) => void events.put(r),
  });
  await listener.start();
  process.on('message', async (m: string) => {
    if (m !== 'stats') return;
    await listener.stop();
    await events.flush();
    // What a restart would show.
    const reloaded = await new EventStore(eventsPath).load();
    process.send!({
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      storeBytes: statSync(eventsPath).size,
      records: reloaded.map((r) => ({ webhookId: r.webhookId, verdict: r.verdict, count: r.count })),
    });
  });
  process.send!({ port: listener.port });
}

void main();
