/**
 * Webhook deliveries: each event goes to every endpoint subscribed to its type, signed with the
 * endpoint's secret. Failures (non-2xx, timeout, connection error) are retried with exponential
 * backoff, keeping the same `webhook-id`; every attempt is kept so tests and users can read it back.
 */
import type { WebhookEvent } from '../service/types';
import { webhookTransport } from '../webhooks/send/outbound';
import { signedHeaders } from '../webhooks/signature';
import type { EmulatorConfig } from './config';
import { randomId } from './wire';

export const DELIVERY_USER_AGENT = 'OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)';

export interface DeliveryTarget {
  id: string;
  url: string;
  signingSecret: string;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status?: number;
  error?: string;
  durationMs: number;
}

export interface Delivery {
  webhookId: string;
  endpointId: string;
  url: string;
  eventId: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

const MAX_KEPT = 1000;

export class Deliverer {
  private readonly deliveries: Delivery[] = [];
  private closed = false;

  constructor(
    private readonly config: EmulatorConfig['delivery'],
    private readonly log: (line: string) => void,
    /** Schedules a retry on a timer the emulator clears when it closes. */
    private readonly later: (ms: number, fn: () => void) => void,
  ) {}

  list(): Delivery[] {
    return this.deliveries.map((d) => ({ ...d, attempts: [...d.attempts] }));
  }

  /**
   * Starts delivery to each target. Resolves once each first attempt is done, so the test route
   * can report the listener's status code; retries go on in the background.
   */
  async send(event: WebhookEvent, targets: DeliveryTarget[]): Promise<Delivery[]> {
    const body = JSON.stringify(event);
    const started = targets.map((t) => {
      const d: Delivery = { webhookId: randomId('msg_'), endpointId: t.id, url: t.url, eventId: event.id, eventType: event.type, state: 'pending', attempts: [] };
      this.deliveries.push(d);
      if (this.deliveries.length > MAX_KEPT) this.deliveries.shift();
      return this.attempt(d, t, body).then(() => d);
    });
    return Promise.all(started);
  }

  private async attempt(d: Delivery, target: DeliveryTarget, body: string): Promise<void> {
    if (this.closed) return;
    const n = d.attempts.length + 1;
    const t0 = Date.now();
    const record: DeliveryAttempt = { attempt: n, at: new Date(t0).toISOString(), durationMs: 0 };
    try {
      const res = await webhookTransport.request(target.url, {
        method: 'POST',
        headers: { 'user-agent': DELIVERY_USER_AGENT, 'content-type': 'application/json', ...signedHeaders(target.signingSecret, d.webhookId, body) },
        body,
        headersTimeout: this.config.timeoutMs,
        bodyTimeout: this.config.timeoutMs,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      await res.body.dump();
      record.status = res.statusCode;
    } catch (err) {
      const e = err as { code?: string; name?: string; message?: string };
      record.error = e.name === 'TimeoutError' ? 'timeout' : (e.code ?? e.message ?? 'error');
    }
    record.durationMs = Date.now() - t0;
    d.attempts.push(record);
    const ok = record.status !== undefined && record.status >= 200 && record.status < 300;
    this.log(`delivery ${d.webhookId} ${d.eventType} → ${d.url} attempt ${n}: ${record.status ?? record.error} (${record.durationMs} ms)`);
    if (ok) {
      d.state = 'delivered';
    } else if (n >= this.config.maxAttempts) {
      d.state = 'failed';
    } else if (!this.closed) {
      this.later(this.config.retryBaseMs * 2 ** (n - 1), () => void this.attempt(d, target, body));
    }
  }

  close(): void {
    this.closed = true;
  }
}
