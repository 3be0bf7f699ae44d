/**
 * Checks the user's own webhook verifier: sends the app a correctly signed delivery, the same with
 * its body changed after signing, and one correctly signed but with a timestamp 10 minutes old. A
 * sound verifier takes the first and refuses the other two. Each is a test event (never a real one),
 * sent once.
 */
import * as l10n from '@vscode/l10n';
import type { Transport } from '../../service/transport';
import { forwardDelivery } from './forward';
import type { ForwardResult } from '../store/records';
import { newWebhookId, testEventBody } from './resend';
import { signedHeaders } from '../signature';

export type Probe = 'signed' | 'tampered' | 'stale';

export interface ProbeResult {
  probe: Probe;
  /** What a sound verifier does with it. */
  expected: 'accept' | 'refuse';
  answer: ForwardResult;
  /** The app did what a sound verifier does. */
  passed: boolean;
}

export interface VerifierReport {
  results: ProbeResult[];
  /** All three as expected. */
  sound: boolean;
  /** One line for people. */
  summary: string;
}

const STALE_SECONDS = 600;
// Stryker disable next-line ConditionalExpression: an HTTP answer is never below 200 (1xx are not final answers).
const accepted = (f: ForwardResult) => f.status !== undefined && f.status >= 200 && f.status <= 299;

export async function checkVerifier(url: string, secret: string, now = Date.now(), outbound?: Transport): Promise<VerifierReport> {
  const send = async (probe: Probe, expected: 'accept' | 'refuse', body: string, signedBody: string, at: number): Promise<ProbeResult> => {
    const webhookId = newWebhookId();
    const headers = { 'content-type': 'application/json', 'user-agent': 'aoai-workbench verifier check', ...signedHeaders(secret, webhookId, signedBody, at) };
    const answer = await forwardDelivery({ url, headers, body, webhookId, outbound });
    const passed = answer.status !== undefined && (expected === 'accept' ? accepted(answer) : !accepted(answer));
    return { probe, expected, answer, passed };
  };
  const body = testEventBody('response.completed', now);
  // Changed after signing, the way an attacker would: the response id it names.
  const tampered = body.replace(/"id":"resp_/, '"id":"resp_tampered_');
  const results = [
    await send('signed', 'accept', body, body, now),
    await send('tampered', 'refuse', tampered, body, now),
    await send('stale', 'refuse', body, body, now - STALE_SECONDS * 1000),
  ];
  return { results, sound: results.every((r) => r.passed), summary: summarize(results) };
}

function summarize(results: ProbeResult[]): string {
  const [signed, tampered, stale] = results;
  const status = (r: ProbeResult) => String(r.answer.status ?? r.answer.error);
  if (signed.answer.status === undefined) return l10n.t('The app did not answer ({0}): is it running at that URL?', String(signed.answer.error));
  if (!signed.passed) {
    return l10n.t('The app refused a correctly signed delivery ({0}): it verifies with another secret, or re-serializes the body before verifying.', status(signed));
  }
  if (!tampered.passed) {
    return l10n.t(
      'The app accepted a delivery whose body was changed after signing ({0}): it does not verify signatures. Anyone who finds its URL can send it events.',
      status(tampered),
    );
  }
  if (!stale.passed) {
    return l10n.t(
      'The app verifies signatures, but accepted one signed {0} minutes ago ({1}): it does not check {2}, so a captured delivery can be replayed.',
      STALE_SECONDS / 60,
      status(stale),
      'webhook-timestamp',
    );
  }
  return l10n.t(
    "The app's verifier is sound: it took the signed delivery ({0}) and refused the tampered ({1}) and the stale one ({2}).",
    status(signed),
    status(tampered),
    status(stale),
  );
}
