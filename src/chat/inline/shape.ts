/**
 * What makes a model's answer a suggestion that continues the code: the fences and the cursor
 * marker it was told not to send are taken out, the code before the cursor it repeats is dropped,
 * the text after the cursor it repeats is trimmed where that leaves the brackets balanced, a
 * mid-line suggestion stays on its line, and a block is indented as the file is.
 */
import { CURSOR, currentLine, type LineMode } from './prompt';

/** A fenced block's content (the first one), or the text with a dangling fence line taken out. */
export function unfence(text: string): string {
  const open = /(?:^|\n)[ \t]*(```|~~~)[^\n`]*(?:\n|$)/.exec(text);
  if (!open) return text;
  // Prose before a fence is an explanation: the code is what the fence holds.
  const rest = text.slice(open.index + open[0].length);
  const close = new RegExp(`(?:^|\\n)[ \\t]*${open[1]}[ \\t]*(?:\\n|$)`).exec(rest);
  return close ? rest.slice(0, close.index) : rest;
}

const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Opened minus closed brackets of `text`, strings not looked into (a rough count, enough for one line or block). */
export function bracketDepth(text: string): number {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (PAIRS[c]) depth--;
  }
  return depth;
}

/** Drops the code before the cursor that the answer starts by repeating (the current line, or the last few). */
export function dropRepeatedPrefix(answer: string, prefix: string): string {
  const lines = prefix.split('\n').slice(-5);
  for (let i = 0; i < lines.length; i++) {
    const repeated = lines.slice(i).join('\n').trimStart();
    // A line of closers or a lone word is too likely to be a real continuation.
    if (repeated.trim().length < 3) continue;
    const a = answer.trimStart();
    if (a.startsWith(repeated)) return a.slice(repeated.length);
  }
  return answer;
}

/** The longest end of `answer` that is a start of `after`. */
function overlap(answer: string, after: string): number {
  for (let k = Math.min(answer.length, after.length); k > 0; k--) if (answer.endsWith(after.slice(0, k))) return k;
  return 0;
}

/**
 * Trims what the answer repeats of the text after the cursor: on the cursor's line, the longest
 * overlap, kept only if the line's brackets balance no worse without it; on the next lines, trailing
 * lines equal to the suffix's first lines (a block's closing brace the file already has).
 */
export function trimSuffixOverlap(answer: string, prefix: string, suffix: string): string {
  const restOfLine = suffix.split('\n', 1)[0];
  const line = currentLine(prefix);
  if (!answer.includes('\n')) {
    const k = overlap(answer, restOfLine.trimEnd());
    if (!k) return answer;
    const trimmed = answer.slice(0, -k);
    const score = (a: string) => Math.abs(bracketDepth(line + a + restOfLine));
    return score(trimmed) <= score(answer) ? trimmed : answer;
  }
  const next = suffix.split('\n').filter((l) => l.trim() !== '');
  const lines = answer.split('\n');
  // The answer's last lines, matched against the suffix's first lines, longest first.
  for (let n = Math.min(lines.length - 1, next.length); n > 0; n--) {
    const end = lines.slice(-n).map((l) => l.trim());
    if (end.every((l, i) => l === next[i].trim()) && end.some((l) => l !== '')) return lines.slice(0, -n).join('\n');
  }
  return answer;
}

/** The file's indentation step, from the lines before the cursor: a tab, or the smallest step in spaces (2 if none). */
export function indentUnit(prefix: string): string {
  let tabs = 0;
  let spaces = 0;
  let step = 0;
  let prev = 0;
  const lines = prefix.split('\n').slice(-200);
  for (const [i, line] of lines.entries()) {
    // A blank line says nothing, except the cursor's: the editor indented it.
    if (line.trim() === '' && (i < lines.length - 1 || line === '')) continue;
    const ws = /^[ \t]*/.exec(line)![0];
    if (ws.startsWith('\t')) tabs++;
    else if (ws.length) spaces++;
    const d = ws.length - prev;
    if (!ws.startsWith('\t') && d > 0 && (step === 0 || d < step)) step = d;
    prev = ws.length;
  }
  if (tabs > spaces) return '\t';
  return ' '.repeat(step || 2);
}

const TAB_WIDTH = 4;
const widthOf = (ws: string) => [...ws].reduce((n, c) => n + (c === '\t' ? TAB_WIDTH : 1), 0);
const leading = (l: string) => /^[ \t]*/.exec(l)![0];

/** Ends with what opens a block whose body goes on the next line. */
const BLOCK_OPENER = /(?:[{:]|=>|\b(?:then|do))\s*$/;

/**
 * Indents a block as the file is: its first line goes where the cursor is (on an empty line, after
 * the indentation already there; after a block opener, on a new line one step in), the others keep
 * their depth relative to it, in the file's steps (a model answering in 4 spaces for a file in 2
 * or in tabs is brought to the file's).
 */
export function reindent(answer: string, prefix: string): string {
  const line = currentLine(prefix);
  const unit = indentUnit(prefix);
  const unitWidth = unit === '\t' ? TAB_WIDTH : unit.length;
  const onEmptyLine = line.trim() === '';
  const newLine = !onEmptyLine && (/^[ \t]*\n/.test(answer) || BLOCK_OPENER.test(line));
  const lines = answer.replace(/^(?:[ \t]*\n)+/, '').split('\n');
  if (lines.every((l) => l.trim() === '')) return '';
  const widths = lines.map((l) => (l.trim() === '' ? -1 : widthOf(leading(l))));
  const given = widths[0];
  // The model's step: the smallest change of depth between its lines.
  let step = 0;
  for (let i = 1, prev = given; i < widths.length; i++) {
    if (widths[i] < 0) continue;
    const d = Math.abs(widths[i] - prev);
    if (d > 0 && (step === 0 || d < step)) step = d;
    prev = widths[i];
  }
  // At column 0 of an empty line the model's own depth is the best guess; otherwise the editor's.
  const trustModel = line === '';
  const base = trustModel ? given : widthOf(leading(line)) + (newLine ? unitWidth : 0);
  const render = (w: number) => (unit === '\t' ? '\t'.repeat(Math.floor(w / TAB_WIDTH)) + ' '.repeat(w % TAB_WIDTH) : ' '.repeat(w));
  const out = lines.map((l, i) => {
    if (widths[i] < 0) return '';
    const levels = step ? Math.round((widths[i] - given) / step) : 0;
    const indent = render(Math.max(0, base + levels * unitWidth));
    if (i === 0) return (newLine || trustModel ? indent : '') + l.trimStart();
    return indent + l.trimStart();
  });
  return (newLine ? '\n' : '') + out.join('\n');
}

export interface ShapeInput {
  prefix: string;
  suffix: string;
  mode: LineMode;
}

/** The model's answer as the text to insert at the cursor ('' when nothing is left of it). */
export function shapeSuggestion(raw: string, { prefix, suffix, mode }: ShapeInput): string {
  let text = unfence(raw.replace(/\r\n/g, '\n')).split(CURSOR).join('');
  text = dropRepeatedPrefix(text, prefix);
  if (mode === 'single') {
    text = text.replace(/^\n+/, (m) => (currentLine(prefix).trim() === '' ? '' : m));
    text = text.split('\n', 1)[0].trimEnd();
    // A line under way continues where the cursor is: the answer's own leading spaces are the model's guess.
    if (currentLine(prefix).trim() !== '' && /\s$/.test(prefix)) text = text.trimStart();
    return trimSuffixOverlap(text, prefix, suffix);
  }
  text = text.replace(/\s+$/, '');
  text = trimSuffixOverlap(text, prefix, suffix);
  return reindent(text, prefix).replace(/\s+$/, '');
}
