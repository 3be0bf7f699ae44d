/**
 * One CSV field (RFC 4180), for the usage tables and a batch's results. Names and replies come
 * from the service, the model and the user's settings: a text that a spreadsheet would run as a
 * formula (=, +, -, @, a tab or a carriage return first) gets a leading apostrophe.
 */

/** Numbers and booleans as they are (a number that is not finite: empty), text quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
