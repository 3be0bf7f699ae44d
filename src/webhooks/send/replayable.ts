/** What Replay and Copy as curl may re-sign: only a body that was stored whole. */
import * as l10n from '@vscode/l10n';
import type { DeliveryRecord } from '../store/records';
import { groupDigits } from '../../text/format';

export function replayableBody(record: DeliveryRecord): string {
  if (record.bodyTruncated) {
    throw new Error(
      l10n.t(
        "This event's body was {0} bytes and only the first {1} were stored: it cannot be replayed or copied as curl (it was forwarded whole when it arrived).",
        record.bodyBytes !== undefined ? groupDigits(record.bodyBytes) : l10n.t('too many'),
        groupDigits(Buffer.byteLength(record.body)),
      ),
    );
  }
  return record.body;
}
