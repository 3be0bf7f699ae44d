/**
 * The strings bundle VS Code hands the extension (`vscode.l10n.bundle`: none in English), carried
 * to a page in its HTML as a JSON data block. A `<script type="application/json">` never runs, so
 * the page's strict CSP stays as it is. Both sides import this file: the extension writes the
 * block, the page reads it back and checks it.
 */
/** Each message as the source says it → as the display language says it. */
export type StringsBundle = Record<string, string>;

export const BUNDLE_ELEMENT_ID = 'l10n-bundle';

/** The data block for the page's HTML; nothing when there is no bundle (English). */
export function bundleBlock(bundle: StringsBundle | undefined): string {
  if (!bundle || Object.keys(bundle).length === 0) return '';
  // `<` as its JSON escape: no `</script>` (nor `<!--`) inside can end the block early.
  const json = JSON.stringify(bundle).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${BUNDLE_ELEMENT_ID}">${json}</script>`;
}

/** The bundle from a data block's text: only string entries (or `{ message }`), else nothing at all. */
export function parseBundle(text: string | null | undefined): StringsBundle | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const bundle: StringsBundle = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') bundle[key] = v;
    else if (typeof v === 'object' && v !== null && typeof (v as { message?: unknown }).message === 'string') bundle[key] = (v as { message: string }).message;
    else return undefined;
  }
  return bundle;
}
