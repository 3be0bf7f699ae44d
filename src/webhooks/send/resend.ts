/**
 * Deliveries sent from here rather than by the service: test events through the public URL,
 * replays of received deliveries, and the same as a curl command. Each is signed afresh with a
 * known endpoint's secret, exactly as the service signs.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import type { Transport } from '../../service/transport';
import { forwardDelivery } from './forward';
import { FORWARD_TIMEOUT_MS } from './forwardErrors';
import { webhookTransport } from './outbound';
import type { DeliveryRecord, ForwardResult, KnownSecret } from '../store/records';
import { replayableBody } from './replayable';
import { signedHeaders } from '../signature';
import type { Route } from './routes';

export const newWebhookId = (): string => `msg_${randomBytes(12).toString('hex')}`;

/** The body of a test event of `type`, shaped like the service's events of that type. */
export function testEventBody(type: string, now = Date.now()): string {
  const prefix = type.startsWith('response') ? 'resp' : type.startsWith('batch') ? 'batch' : 'ftjob';
  const data =
    type === 'realtime.call.incoming'
      ? { call_id: `rtc_test_${now}`, sip_headers: [{ name: 'From', value: 'sip:test@example.com' }] }
      : { id: `${prefix}_test_${now}` };
  const id = `evt_test_${randomBytes(8).toString('hex')}`;
  return JSON.stringify({ object: 'event', id, type, created_at: Math.floor(now / 1000), data });
}

/**
 * The secret to re-sign a received delivery with: only the one that verified it, since
 * re-signing a rejected delivery would forge a valid one.
 */
export function secretThatVerified(record: DeliveryRecord, known: readonly KnownSecret[]): string {
  const match = record.endpointId ? known.find((k) => k.endpointId === record.endpointId) : undefined;
  if (!match) {
    throw new Error(
      "No signing secret is known for this event's endpoint, so it cannot be re-signed. Start listening for its connection first.",
    );
  }
  return match.secret;
}

export interface SignedDelivery {
  url: string;
  secret: string;
  body: string;
  /** A new one when not given. */
  webhookId?: string;
  headers?: Record<string, string>;
  /** How it goes out (the user's proxy: see `webhookOutbound`); direct by default. */
  outbound?: Transport;
  /** How long to wait for the answer: a tunnel that hangs must not keep the user waiting minutes. */
  timeoutMs?: number;
}

/** POSTs a freshly signed delivery; resolves with the HTTP status it was answered with. */
export async function sendSigned(d: SignedDelivery): Promise<number> {
  const headers = { 'content-type': 'application/json', ...d.headers, ...signedHeaders(d.secret, d.webhookId ?? newWebhookId(), d.body) };
  const timeout = d.timeoutMs ?? FORWARD_TIMEOUT_MS;
  const res = await (d.outbound ?? webhookTransport).request(d.url, { method: 'POST', headers, body: d.body, headersTimeout: timeout, bodyTimeout: timeout });
  await res.body.dump();
  return res.statusCode;
}

export interface TestEventInput {
  /** The listener's public URL (through the tunnel), so the whole path is tried. */
  url: string;
  known: readonly KnownSecret[];
  type: string;
  /** The endpoint that delivers to this listener, when there is one whose secret is held. */
  endpointId?: string;
  outbound?: Transport;
  /** The service's own test route, where it has one (OpenAI's; Azure may not). */
  serviceTest?: (endpointId: string, type: string) => Promise<{ status_code?: number | null }>;
}

export interface TestEventResult {
  /** The listener's answer. */
  status: number;
  /** Who signed and sent it: the service through its test route, or this extension. */
  sentBy: 'service' | 'extension';
  /** Why the service's test route was not used, when it was not. */
  note?: string;
}

/**
 * One test event, one delivery: through the service's test route when an endpoint points here and
 * the service has the route (the whole path, signed by the service), else signed here with the
 * secret of the endpoint aimed at this listener. Never with another held secret: that endpoint
 * (a production one's rotation replacement, say) would then have a valid signature of ours sent
 * through a third-party tunnel.
 */
export async function sendTestEvent(input: TestEventInput): Promise<TestEventResult> {
  const target = input.known.find((k) => k.endpointId === input.endpointId);
  if (!target) {
    throw new Error(
      input.endpointId === undefined
        ? l10n.t('No webhook endpoint delivers to this listener, so there is no secret to sign a test event with: create one for it (Start Listening offers it) and try again.')
        : l10n.t(
            'The endpoint delivering to this listener ({0}) was not created here, so its signing secret is not held: no test event can be signed. Create one here (Start Listening).',
            input.endpointId,
          ),
    );
  }
  let note = 'the service has no test route here';
  if (input.serviceTest) {
    try {
      const t = await input.serviceTest(target.endpointId, input.type);
      if (typeof t.status_code === 'number') return { status: t.status_code, sentBy: 'service' };
      note = 'the service could not reach the listener';
    } catch (err) {
      note = `the service has no test route here (${(err as Error).message.split('.')[0]})`;
    }
  }
  const headers = { 'user-agent': 'aoai-workbench test event' };
  const status = await sendSigned({ url: input.url, secret: target.secret, body: testEventBody(input.type), headers, outbound: input.outbound });
  return { status, sentBy: 'extension', note };
}

/** Sends a received delivery again, re-signed; `keepWebhookId` tests the receiver's duplicate handling. */
export async function replay(
  record: DeliveryRecord,
  known: readonly KnownSecret[],
  url: string,
  keepWebhookId: boolean,
  outbound?: Transport,
): Promise<number> {
  const webhookId = keepWebhookId && record.webhookId ? record.webhookId : undefined;
  const body = replayableBody(record);
  return sendSigned({ url, secret: secretThatVerified(record, known), body, webhookId, outbound });
}

/**
 * Sends a received delivery (or an edited body) to the app again, signed afresh with the secret
 * that verified it and a new webhook-id, and keeps the app's answer (kind "replay").
 */
export async function replayToApp(
  record: DeliveryRecord,
  known: readonly KnownSecret[],
  target: string | Route,
  editedBody?: string,
  outbound?: Transport,
): Promise<ForwardResult> {
  const { url, pattern } = typeof target === 'string' ? { url: target, pattern: undefined } : target;
  const body = editedBody ?? replayableBody(record);
  const secret = secretThatVerified(record, known);
  const webhookId = newWebhookId();
  const headers = { 'content-type': 'application/json', 'user-agent': 'aoai-workbench replay', ...signedHeaders(secret, webhookId, body) };
  return forwardDelivery({ url, route: pattern, headers, body, kind: 'replay', webhookId, edited: editedBody !== undefined && editedBody !== record.body, outbound });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** PowerShell's single-quoted string: every quote it takes for a single quote (the typographic ones too) doubled. */
const powershellQuote = (s: string) => `'${s.replace(/['\u2018\u2019\u201A\u201B]/g, '$&$&')}'`;

/** Which shell a copied command is written for: PowerShell on Windows, bash and other POSIX shells elsewhere. */
export type CommandShell = 'posix' | 'powershell';
export const defaultShell = (platform: NodeJS.Platform = process.platform): CommandShell => (platform === 'win32' ? 'powershell' : 'posix');

/**
 * A command that sends the delivery again, signed now (valid for the receiver's tolerance): curl
 * for POSIX shells; for PowerShell, Invoke-WebRequest with the body as UTF-8 bytes, because
 * Windows PowerShell's `curl` is another command and it re-quotes (and re-encodes) what it passes
 * to curl.exe, which would change the signed bytes.
 */
export function signedCurl(
  record: DeliveryRecord,
  known: readonly KnownSecret[],
  url: string,
  editedBody?: string,
  shell: CommandShell = defaultShell(),
): string {
  const body = editedBody ?? replayableBody(record);
  const signed = signedHeaders(secretThatVerified(record, known), newWebhookId(), body);
  if (shell === 'powershell') {
    const q = powershellQuote;
    return [
      `Invoke-WebRequest -UseBasicParsing -Method POST -Uri ${q(url)} -ContentType 'application/json'`,
      `-Headers @{ ${Object.entries(signed).map(([k, v]) => `${q(k)} = ${q(v)}`).join('; ')} }`,
      `-Body ([System.Text.Encoding]::UTF8.GetBytes(${q(body)}))`,
    ].join(' `\n  ');
  }
  const headers = { 'content-type': 'application/json', ...signed };
  return [
    `curl -X POST ${shellQuote(url)}`,
    ...Object.entries(headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`),
    `--data-raw ${shellQuote(body)}`,
  ].join(' \\\n  ');
}
