/**
 * One listener in its own process for the benchmark: `ours` (WebhookListener) or `reference`
 * (node:http + the standardwebhooks package, the way its README shows). Prints its port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookListener } from '../src/webhooks/receive/listener';
import { EventStore, FileDedupeStore } from '../src/webhooks/store/stores';

const [kind, secret] = process.argv.slice(2);

async function main(): Promise<void> {
  if (kind === 'ours' || kind === 'ours-stored') {
    // ours-stored: as in the extension, processed ids and received events written to disk.
    const dir = kind === 'ours-stored' ? mkdtempSync(join(tmpdir(), 'aoai-bench-store-')) : undefined;
    const events = dir ? new EventStore(join(dir, 'events.jsonl')) : undefined;
    const l = new WebhookListener({
      secrets: () => [{ endpointId: 'we_bench', secret }],
      dedupe: dir ? new FileDedupeStore(join(dir, 'ids.txt')) : undefined,
      onDelivery: events ? (r) => void events.put(r) : undefined,
    });
    await l.start();
    process.stdout.write(`PORT=${l.port}\n`);
    return;
  }
  const wh = new Webhook(secret);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        wh.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
        res.writeHead(200).end('OK');
      } catch {
        res.writeHead(400).end('Invalid signature');
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT=${(server.address() as AddressInfo).port}\n`));
}

// Exit cleanly on a signal (lets --cpu-prof write its profile).
process.on('SIGINT', () => process.exit(0));
void main();
