/**
 * Text from outside (SIP headers, delivery bodies, model output, a service's error, a file name)
 * as the surfaces VS Code gives an extension would otherwise render it. What each renders (VS Code
 * 1.139's workbench):
 *
 * - a notification's message and a progress notification's title: `[label](https:|command:|file:…)`
 *   becomes a link, and a command link runs with `allowCommands` (linkedText.ts,
 *   notificationsViewer.ts); line breaks become spaces, 1,000 characters are kept;
 * - an input box's prompt and validation message: the same links, and `$(name)` codicons
 *   (renderQuickInputDescription in quickInputUtils.ts);
 * - a quick pick item's label, description and detail: `$(name)` codicons (IconLabel with
 *   supportIcons); a label's line breaks show as ⏎;
 * - a tree item's string label and description: plain text on one row (line breaks shown as ⏎);
 *   a string tooltip is plain text; a MarkdownString tooltip is Markdown (links, images, code).
 *
 * So a value goes in through `plainLine` (one line, no link, no codicon, cut), in a tree row
 * through `rowText` (one line, cut), and inside a Markdown tooltip through `markdownLine`. Each
 * keeps every visible character. A link needs "](" and a codicon "$(" side by side: `plainLine`
 * puts an invisible joiner between them, and at a value's edges (before a leading "(", after a
 * trailing "]" or "$") so none forms where the value meets the text around it. Other "(" stay as
 * they are: "(404)" reads and compares as written. No `vscode` import: plain Node tests run it.
 */

/** Zero-width joiner: invisible, keeps the text as typed for the eye. */
const JOINER = '\u200D';
/** Line and paragraph breaks of any kind, with the spaces around them. */
const BREAKS = /[ \t]*(?:\r\n|[\r\n\v\f\u0085\u2028\u2029])[ \t]*/g;
/**
 * Characters that would change how the text around them reads without showing themselves: C0/C1
 * controls (tab aside) and the bidirectional overrides and isolates that can reorder what follows.
 * Each shows as "�", so the user sees something was there.
 */
const HIDDEN = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** The pairs a link (`[label](target)`) and a codicon (`$(name)`) are made of. */
const SYNTAX = /([\]$])\(/g;

/** The default cut for a value inside one line: an address, an id, an error, a file name. */
export const LINE_MAX = 200;

/** `text` cut to `max` characters with "…", never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Line breaks as spaces, hidden characters shown, cut. */
const oneLine = (text: string, max: number) => cutText(text.replace(BREAKS, ' ').replace(HIDDEN, '\uFFFD').replace(/\t/g, ' '), max);

/**
 * An outside value for a notification, a progress title, an input box's prompt or validation
 * message, a quick pick item or a tree row: on one line, cut to `max`, and no link or codicon.
 */
export function plainLine(text: string, max = LINE_MAX): string {
  // Once broken, a pair is no longer one: applying it again adds nothing.
  const inside = oneLine(text, max).replace(SYNTAX, `$1${JOINER}(`);
  return `${inside.startsWith('(') ? JOINER : ''}${inside}${/[\]$]$/.test(inside) ? JOINER : ''}`;
}

/**
 * An outside value in a tree row's string label or description: VS Code shows those as text (no
 * link, no codicon), so only one line and the cut are needed; no joiner that would get in the way
 * of typing to find the row.
 */
export const rowText = (text: string, max = LINE_MAX): string => oneLine(text, max);

/**
 * Every ASCII mark Markdown gives a meaning to: emphasis, code, links and images, HTML and
 * entities, headings and lists, tables, and the ":", "/", "." and "@" an autolink needs.
 */
const MARKDOWN = /[\\`*_{}[\]()#+\-.!|<>~:/&=^@]/g;

/**
 * An outside value inside a MarkdownString (a tooltip): one line, cut, and every Markdown mark
 * escaped, so no link, autolink, image, HTML, emphasis or code span of its own.
 */
export function markdownLine(text: string, max = LINE_MAX): string {
  return oneLine(text, max).replace(MARKDOWN, '\\$&');
}

