/**
 * The request of an inline suggestion. Azure OpenAI has no fill-in-the-middle endpoint for current
 * models, so a suggestion is a chat: the code before and after the cursor (marked `<cursor/>`),
 * the file's language and path, the first lines of a few open tabs within a token budget, and the
 * instruction to answer with the insertion only. Plain data, tested in plain Node.
 */
import { estimateTokens } from '../tokenEstimate';
import type { NeutralMessage } from '../engine/messages';

/** Where the insertion goes, in the file as sent. */
export const CURSOR = '<cursor/>';

export interface OpenTab {
  path: string;
  text: string;
}

/** What a suggestion depends on: the document around the cursor, and open tabs for context. */
export interface InlineContext {
  /** The document's text before the cursor (the prompt keeps its end). */
  prefix: string;
  /** The text after the cursor (the prompt keeps its start). */
  suffix: string;
  languageId: string;
  /** The file's path as the user knows it (relative to the workspace when inside it). */
  path: string;
  /** Other open documents, most recently used first; only their first lines are sent. */
  tabs?: readonly OpenTab[];
}

/** A single line when text follows the cursor or the line is under way; several on an empty line or after a block opener. */
export type LineMode = 'single' | 'multi';

export const PROMPT_LIMITS = {
  /** Characters of the document kept before and after the cursor (about 1,500 and 500 tokens). */
  prefixChars: 6_000,
  suffixChars: 2_000,
  /** Tokens of open tabs, all of them together; lines per tab. */
  tabTokens: 600,
  tabLines: 40,
  /** The answer's cap: a line, or a short block. */
  singleLineTokens: 64,
  multiLineTokens: 256,
} as const;

/** Ends with something that opens a block: `{`, `(`, `[`, `:` (Python), `=>`, `then`/`do` (shells, Lua, Ruby). */
const OPENER = /(?:[{([:]|=>|\b(?:then|do))\s*$/;

export function currentLine(prefix: string): string {
  return prefix.slice(prefix.lastIndexOf('\n') + 1);
}

export function lineMode(prefix: string, suffix: string): LineMode {
  const after = suffix.slice(0, (suffix.indexOf('\n') + 1 || suffix.length + 1) - 1);
  // Closers right after the cursor (`{|}`, `(|)`) do not make a line mid-line: they close what the line opened.
  if (after.trim() !== '' && !/^[\s)\]}>;,'"`]*$/.test(after)) return 'single';
  const line = currentLine(prefix);
  return line.trim() === '' || OPENER.test(line) ? 'multi' : 'single';
}

/** The end of `text`, at most `max` characters, starting at a line's start when it has to be cut. */
function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const nl = cut.indexOf('\n');
  return nl < 0 ? cut : cut.slice(nl + 1);
}

/** The start of `text`, at most `max` characters, ending at a line's end when it has to be cut. */
export function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const nl = cut.lastIndexOf('\n');
  return nl < 0 ? cut : cut.slice(0, nl);
}

/** The first lines of the open tabs, each whole tab or fewer lines, all within the token budget. */
/** The text after the cursor as sent (and as the cache keys it). */
export const clipSuffix = (suffix: string) => head(suffix, PROMPT_LIMITS.suffixChars);

export function tabContext(tabs: readonly OpenTab[], currentPath: string, budget: number = PROMPT_LIMITS.tabTokens): OpenTab[] {
  const out: OpenTab[] = [];
  let left = budget;
  for (const tab of tabs) {
    if (tab.path === currentPath || left <= 0) continue;
    const lines: string[] = [];
    for (const line of tab.text.split('\n').slice(0, PROMPT_LIMITS.tabLines)) {
      const cost = estimateTokens(line) + 1;
      if (cost > left) break;
      lines.push(line);
      left -= cost;
    }
    while (lines.length && lines.at(-1)!.trim() === '') lines.pop();
    if (lines.length) out.push({ path: tab.path, text: lines.join('\n') });
  }
  return out;
}

const SYSTEM = [
  `You complete code. The user sends a file with ${CURSOR} where the cursor is.`,
  `Reply with the exact text to insert at ${CURSOR}, and nothing else: no explanation, no Markdown, no code fences,`,
  'no repetition of the code before or after the cursor. Keep the file\'s indentation and style.',
  'If nothing fits, reply with nothing.',
].join(' ');

const MODE_NOTE: Record<LineMode, string> = {
  single: 'Complete the current line only.',
  multi: 'Complete the statement or block that starts here, a few lines at most.',
};

/** `path` and `language` are the user's file name and VS Code's id: attribute values without quotes or line breaks. */
const attr = (s: string) => s.replace(/["\r\n<>]/g, '_');

export interface InlinePrompt {
  messages: NeutralMessage[];
  mode: LineMode;
  /** The answer's token cap (the caller may raise it for a model that thinks first). */
  maxTokens: number;
  /** The text before and after the cursor as sent. */
  prefix: string;
  suffix: string;
}

export function buildInlinePrompt(ctx: InlineContext): InlinePrompt {
  const mode = lineMode(ctx.prefix, ctx.suffix);
  const prefix = tail(ctx.prefix, PROMPT_LIMITS.prefixChars);
  const suffix = clipSuffix(ctx.suffix);
  const parts: string[] = [];
  const tabs = tabContext(ctx.tabs ?? [], ctx.path);
  if (tabs.length) {
    parts.push('Other open files, for context (their first lines):');
    for (const t of tabs) parts.push(`<file path="${attr(t.path)}">\n${t.text}\n</file>`);
    parts.push('');
  }
  parts.push(`Insert code at ${CURSOR} in this file. ${MODE_NOTE[mode]}`);
  parts.push(`<file path="${attr(ctx.path)}" language="${attr(ctx.languageId)}">\n${prefix}${CURSOR}${suffix}\n</file>`);
  return {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: SYSTEM }] },
      { role: 'user', parts: [{ type: 'text', text: parts.join('\n') }] },
    ],
    mode,
    maxTokens: mode === 'single' ? PROMPT_LIMITS.singleLineTokens : PROMPT_LIMITS.multiLineTokens,
    prefix,
    suffix,
  };
}
