import { Client } from 'undici';

/** A signed POST to the listener on a connection of its own (a new sender, as the service's retries are): its status. */
export async function deliver(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const client = new Client(url);
  try {
    const res = await client.request({ path: '/webhook', method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    await res.body.dump();
    return res.statusCode;
  } finally {
    await client.close();
  }
}
