/**
 * The emulator's answer to a code completion request: a file sent with `<cursor/>` where the
 * cursor is (the prompt inline suggestions send, in words a real model reads). Deterministic, and
 * plausible, like a model's answer, fences and all left to the client:
 *
 * - a line under way that an earlier line of the file starts the same way is finished as that
 *   line was (a known pattern echoed);
 * - an empty line under a block opener the file has had before gets the body that followed it
 *   there (a repeated block, several lines);
 * - an empty body under a function's signature gets `return` of its parameters (`a + b`), on a
 *   new line when the cursor is right after the opener;
 * - anything else gets nothing, as a model with nothing to add answers.
 */

const CURSOR = '<cursor/>';

/** The file the cursor is in: from the line after the last `<file …>` before the cursor to the `</file>` after it. */
export function fileAtCursor(message: string): { prefix: string; suffix: string; language: string } | undefined {
  const at = message.lastIndexOf(CURSOR);
  if (at < 0) return undefined;
  const open = message.lastIndexOf('<file ', at);
  const headerEnd = message.indexOf('>\n', open);
  if (open < 0 || headerEnd < 0 || headerEnd > at) return undefined;
  const close = message.lastIndexOf('\n</file>');
  const language = /language="([^"]*)"/.exec(message.slice(open, headerEnd))?.[1] ?? '';
  return { prefix: message.slice(headerEnd + 2, at), suffix: message.slice(at + CURSOR.length, close > at ? close : undefined), language };
}

/** A signature's parameter names: `a: number`, `b = 2`, `...rest`, `self` left out. */
function parameterNames(list: string): string[] {
  return list
    .split(',')
    .map((p) => /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(p)?.[1])
    .filter((n): n is string => !!n && n !== 'self' && n !== 'this');
}

const SIGNATURE = /^(\s*)(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*[\w$]*|def\s+\w+|(?:public|private|protected|static|\s)*[\w$]+)\s*\(([^)]*)\)[^{]*[{:]\s*$/;

function body(prefix: string, language: string): string | undefined {
  const lines = prefix.split('\n');
  const current = lines.at(-1)!;
  const onEmptyLine = current.trim() === '';
  const header = onEmptyLine ? [...lines.slice(0, -1)].reverse().find((l) => l.trim() !== '') : current;
  const m = header && SIGNATURE.exec(header);
  if (!m || /^\s*(if|for|while|switch|catch)\b/.test(header)) return undefined;
  const names = parameterNames(m[2]);
  const python = language === 'python' || /^\s*def\s/.test(header);
  const statement = `return ${names.length ? names.join(' + ') : python ? 'None' : 'undefined'}${python ? '' : ';'}`;
  const indent = m[1] + (python ? '    ' : '  ');
  return onEmptyLine ? `${indent}${statement}` : `\n${indent}${statement}`;
}

/** The earlier line this one starts like, finished the same way. */
function knownLine(prefix: string): string | undefined {
  const lines = prefix.split('\n');
  const typed = lines.at(-1)!.trimStart();
  if (typed.length < 2) return undefined;
  for (let i = lines.length - 2; i >= 0; i--) {
    const earlier = lines[i].trimStart();
    if (earlier.length > typed.length && earlier.startsWith(typed)) return earlier.slice(typed.length);
  }
  return undefined;
}

/** How many blanks a line starts with. */
const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** On an empty line under an opener that appeared earlier: the lines that were under it there, up to its closing line. */
function knownBlock(prefix: string): string | undefined {
  const lines = prefix.split('\n');
  if (lines.at(-1)!.trim() !== '') return undefined;
  let at = lines.length - 2;
  while (at >= 0 && lines[at].trim() === '') at--;
  const opener = lines[at];
  if (!opener || !/[{:]\s*$/.test(opener)) return undefined;
  const earlier = lines.slice(0, at).lastIndexOf(opener);
  if (earlier < 0) return undefined;
  const outer = indentOf(opener);
  const body: string[] = [];
  for (const line of lines.slice(earlier + 1, at)) {
    if (line.trim() !== '' && indentOf(line) <= outer) break;
    body.push(line);
  }
  // As a model echoes them: each line at its depth (the client fits the first to the cursor).
  return body.length ? body.join('\n') : undefined;
}

/** The insertion a model would answer with, '' for nothing; undefined when the message is not a code completion request. */
export function completeAtCursor(message: string): string | undefined {
  const file = fileAtCursor(message);
  if (!file) return undefined;
  return knownBlock(file.prefix) ?? body(file.prefix, file.language) ?? knownLine(file.prefix) ?? '';
}
