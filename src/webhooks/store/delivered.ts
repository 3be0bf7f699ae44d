/**
 * A delivery as the listener's process hands it to the host (issue #35): the record's JSON bytes,
 * as the child encoded them once, and the few fields the host acts on without reading the rest
 * (a row, a route, a duplicate's id, a log line). The host copies the bytes into its store and its
 * events file without decoding them; the record is decoded only when something asks for it.
 */
import type { EventSummary } from './packed';
import type { DeliveryRecord, Verdict } from './records';

/** What crosses the IPC channel beside the bytes: `bytes` is the length of the record's JSON in them. */
export interface DeliveredFields {
  id: string;
  receivedAt: number;
  verdict: Verdict;
  eventType?: string;
  webhookId?: string;
  endpointId?: string;
  eventId?: string;
  reason?: string;
  bytes: number;
}

/** The fields of `r` that cross beside its bytes (the child's side). */
export function deliveredFields(r: DeliveryRecord, bytes: number): DeliveredFields {
  const { id, receivedAt, verdict, eventType, webhookId, endpointId, eventId, reason } = r;
  return { id, receivedAt, verdict, eventType, webhookId, endpointId, eventId, reason, bytes };
}

export class Delivered implements EventSummary {
  // Declared, not defined: the fields are the ones the channel brought (assigned at once).
  declare readonly id: string;
  declare readonly receivedAt: number;
  declare readonly verdict: Verdict;
  declare readonly eventType: string | undefined;
  declare readonly webhookId: string | undefined;
  declare readonly endpointId: string | undefined;
  declare readonly eventId: string | undefined;
  declare readonly reason: string | undefined;

  /** `json`: exactly the record's UTF-8 JSON (a view of the batch that brought it: `own()` to keep it longer). */
  constructor(
    f: Omit<DeliveredFields, 'bytes'>,
    readonly json: Buffer,
  ) {
    const { id, receivedAt, verdict, eventType, webhookId, endpointId, eventId, reason } = f;
    Object.assign(this, { id, receivedAt, verdict, eventType, webhookId, endpointId, eventId, reason });
  }

  /** A record in hand (a listener in this process, a test): encoded once here. */
  static of(r: DeliveryRecord): Delivered {
    return new Delivered(r, Buffer.from(JSON.stringify(r)));
  }

  record(): DeliveryRecord {
    return Object.freeze(JSON.parse(this.json.toString()) as DeliveryRecord);
  }

  /** The same, with bytes of its own (outside the JS heap), so the batch's bytes can go. */
  own(): Delivered {
    return new Delivered(this, Buffer.from(this.json));
  }
}
