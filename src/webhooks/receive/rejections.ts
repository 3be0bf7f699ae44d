/**
 * What the listener keeps of a delivery it could not verify. Anyone who finds the tunnel's URL can
 * send those, as fast and as large as they like, so they are metadata only (capped header values,
 * a short body prefix) and rate-limited: the first few of each window are kept one by one, the
 * rest only counted, per sender, and reported as one summary record when the window ends.
 */
import * as l10n from '@vscode/l10n';
import { recordId, type DeliveryRecord } from '../store/records';
import { groupDigits } from '../../text/format';
import { ownString } from './ownString';

/** Longest header value kept in any record (and so in the store and the log). */
export const MAX_HEADER_VALUE = 512;
/** Bytes of an unverified body kept, enough to recognise what was sent. */
export const REJECTED_BODY_PREFIX = 256;

/** A value as a record keeps it: at most MAX_HEADER_VALUE characters, none of them a view into a longer string. */
export function capHeader(value: string): string {
  return value.length > MAX_HEADER_VALUE ? `${ownString(value.slice(0, MAX_HEADER_VALUE))}… (${value.length} characters)` : value;
}

/** Who sent it, as far as the listener can tell: a tunnel names the client; else the socket's peer. */
export function senderOf(headers: Record<string, string>, remoteAddress: string | undefined): string {
  const forwarded = headers['cf-connecting-ip'] ?? headers['x-forwarded-for']?.split(',')[0];
  return (forwarded?.trim() || remoteAddress || 'unknown').slice(0, 64);
}

export interface RejectionLimits {
  /** Rejected deliveries recorded one by one per window. */
  perWindow: number;
  windowMs: number;
  /** Senders counted by name in one window; the rest are counted together. */
  maxSenders: number;
}

const DEFAULTS: RejectionLimits = { perWindow: 20, windowMs: 10_000, maxSenders: 16 };
const OTHERS = 'other senders';

export class RejectionLimiter {
  private readonly limits: RejectionLimits;
  private kept = 0;
  private readonly counted = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (summary: DeliveryRecord) => void,
    limits: Partial<RejectionLimits> = {},
  ) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  /** True when this rejection may be recorded on its own; otherwise it was counted. */
  admit(sender: string): boolean {
    this.timer ??= setTimeout(() => this.endWindow(), this.limits.windowMs).unref();
    if (this.kept < this.limits.perWindow) {
      this.kept++;
      return true;
    }
    const key = this.counted.has(sender) || this.counted.size < this.limits.maxSenders ? sender : OTHERS;
    this.counted.set(key, (this.counted.get(key) ?? 0) + 1);
    return false;
  }

  /** Ends the window at once (the listener stops): what was counted is reported. */
  endWindow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.kept = 0;
    if (!this.counted.size) return;
    const bySender = [...this.counted].sort((a, b) => b[1] - a[1]);
    this.counted.clear();
    const total = bySender.reduce((n, [, c]) => n + c, 0);
    const fmt = groupDigits;
    const from = bySender.map(([s, c]) => `${s} (${fmt(c)})`).join(', ');
    this.emit({
      id: recordId(),
      receivedAt: Date.now(),
      verdict: 'rejected',
      status: 400,
      count: total,
      summary:
        bySender.length === 1
          ? l10n.t('{0} rejected deliveries from {1}', fmt(total), bySender[0][0])
          : l10n.t('{0} rejected deliveries from {1} senders', fmt(total), bySender.length),
      reason: l10n.t('{0} rejected deliveries from {1} within {2} s: counted, not kept one by one.', fmt(total), from, Math.round(this.limits.windowMs / 1000)),
      body: '',
      headers: {},
    });
  }
}
