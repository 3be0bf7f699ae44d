/**
 * `n` signed deliveries shaped like the service's, pipelined as raw HTTP/1.1 in one Buffer: outside
 * the heap, so a heap measured while they are sent holds only what the receiving side keeps.
 */
import { signedHeaders } from '../../src/webhooks/signature';

export function pipelinedDeliveries(tag: string, n: number, secret: string): Buffer {
  const requests = Array.from({ length: n }, (_, i) => {
    const body = JSON.stringify({ object: 'event', id: `evt_${tag}_${i}`, type: 'response.completed', created_at: 1, data: { id: `resp_${tag}_${String(i).padStart(40, '0')}` } });
    const signed = signedHeaders(secret, `msg_${tag}_${String(i).padStart(28, '0')}`, body);
    const headers = { 'user-agent': 'OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)', 'content-type': 'application/json', ...signed };
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    return `POST /webhook HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${lines}\r\n${body}`;
  });
  return Buffer.from(requests.join(''));
}
