/**
 * A string that holds only its own characters. V8 cuts a substring of 13 characters or more as a
 * slice that points into its parent, so a short value kept for long (a header value in a record,
 * a webhook-id in the dedupe window) would keep the whole request head it was read from alive,
 * up to the listener's 16 KiB head limit, for as long as it is kept.
 */
export function ownString(text: string): string {
  // Shorter ones are copied by V8 already. UTF-8 round-trips any text made of whole characters,
  // which header text (decoded as Latin-1) always is.
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}
