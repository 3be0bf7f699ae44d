/**
 * What the "Azure OpenAI Webhooks" output channel says about deliveries: a line per delivery (a
 * burst's first lines each second, then a count; every one at Debug level), the app's answer to
 * each forward and replay, and the payload itself at Debug level.
 */
import * as vscode from 'vscode';
import { LineBudget } from './burst';
import type { Delivered } from '../../webhooks/store/delivered';
import type { DeliveryRecord, ForwardResult } from '../../webhooks/store/records';
import { redact } from '../log';

export class DeliveryLog implements vscode.Disposable {
  private readonly budget = new LineBudget((skipped) =>
    this.output().info(`${skipped} more deliveries in the last second, not logged one by one: each is in the Webhook Events view (every one is logged at Debug level).`),
  );

  /** The channel is created when first used, not at activation. */
  constructor(private readonly output: () => vscode.LogOutputChannel) {}

  /** From the delivery's summary: its record is decoded only for a payload shown at Debug level. */
  delivered(r: Delivered): void {
    const out = this.output();
    const debug = out.logLevel <= vscode.LogLevel.Debug;
    // A replay flood of one signed delivery is counted, not logged line by line; a burst of deliveries
    // is logged a line each only at Debug level (otherwise its first lines each second, then a count).
    if (!debug && (r.verdict === 'duplicate' || !this.budget.admit())) return;
    const line = `${new Date(r.receivedAt).toISOString()} ${r.eventType ?? '-'} ${r.eventId ?? '-'} webhook-id=${r.webhookId ?? '-'} ${r.verdict.toUpperCase()}${r.reason ? `: ${r.reason}` : ''}`;
    if (r.verdict === 'rejected' || r.verdict === 'malformed') out.warn(line);
    else if (r.verdict === 'duplicate') out.debug(line);
    else out.info(line);
    // Formatting a payload costs more than verifying it: only when debug lines are shown.
    const body = debug ? r.record().body : '';
    if (body) out.debug(redact(prettyBody(body)));
  }

  forwarded(r: DeliveryRecord, f: ForwardResult): void {
    this.output().info(`  forwarded ${r.webhookId} to ${f.url}: ${f.status ?? f.error} in ${f.durationMs} ms`);
  }

  replayed(r: DeliveryRecord, answer: ForwardResult): void {
    this.output().info(`Replayed ${r.eventType ?? 'delivery'} ${r.eventId ?? ''}${answer.edited ? ' (edited)' : ''} to ${answer.url}: ${answer.status ?? answer.error} in ${answer.durationMs} ms`);
  }

  /** What a burst left uncounted is said now (before the listener's last line). */
  endBurst(): void {
    this.budget.endWindow();
  }

  dispose(): void {
    this.budget.dispose();
  }
}

export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
