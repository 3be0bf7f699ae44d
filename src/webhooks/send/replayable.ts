/** What Replay and Copy as curl may re-sign: only a body that was stored whole. */
import type { DeliveryRecord } from '../store/records';
import { groupDigits } from '../../text/format';

export function replayableBody(record: DeliveryRecord): string {
  if (record.bodyTruncated) {
    throw new Error(
      `This event's body was ${record.bodyBytes !== undefined ? groupDigits(record.bodyBytes) : 'too many'} bytes ` +
        `and only the first ${groupDigits(Buffer.byteLength(record.body))} were stored: ` +
        'it cannot be replayed or copied as curl (it was forwarded whole when it arrived).',
    );
  }
  return record.body;
}
