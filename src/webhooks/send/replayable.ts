/** What Replay and Copy as curl may re-sign: only a body that was stored whole. */
import * as l10n from '@vscode/l10n';
import type { DeliveryRecord } from '../store/records';

export function replayableBody(record: DeliveryRecord): string {
  if (record.bodyTruncated) {
    throw new Error(
      l10n.t(
        "This event's body was {0} bytes and only the first {1} were stored: it cannot be replayed or copied as curl (it was forwarded whole when it arrived).",
        record.bodyBytes?.toLocaleString('en') ?? l10n.t('too many'),
        Buffer.byteLength(record.body).toLocaleString('en'),
      ),
    );
  }
  return record.body;
}
