/**
 * Puts one variable into the text of a `.env` file, the way a person editing it would: the
 * assignment that sets it is replaced (the last one, which is the one dotenv loaders keep), or a
 * line is added at the end; every other byte stays as it was (comments, blank lines, each line's
 * own ending, a missing final newline). Used to hand a rotated signing secret to the user's app.
 */

/** A name shells and dotenv loaders accept. */
export function validEnvName(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? undefined : 'Use letters, digits and underscores, not starting with a digit (e.g. WEBHOOK_SECRET).';
}

/** Single quotes keep the value literal in dotenv and shells; a secret never holds one. */
function quoted(value: string): string {
  if (/['\r\n]/.test(value)) throw new Error('The value cannot be written to a .env file: it holds a quote or a line break.');
  return /^[A-Za-z0-9_+/=.:@-]*$/.test(value) ? value : `'${value}'`;
}

export interface EnvUpdate {
  text: string;
  /** Whether an existing line was replaced (else one was added). */
  replaced: boolean;
}

interface Line {
  body: string;
  /** '\r\n', '\n' or '' (the last line without a final newline). */
  eol: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const re = /\r?\n/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    lines.push({ body: text.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty last line adds nothing to the text
  if (start < text.length) lines.push({ body: text.slice(start), eol: '' });
  return lines;
}

/** An assignment `[export] NAME = value [# comment]`, with what surrounds the value. */
const ASSIGNMENT = /^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

/** The quote a value opens and does not close on its line (dotenv reads on to the closing one). */
function openQuote(value: string): string | undefined {
  const q = value[0];
  if (q !== '"' && q !== "'" && q !== '`') return undefined;
  return closes(value.slice(1), q) ? undefined : q;
}

function closes(text: string, quote: string): boolean {
  // Stryker disable next-line EqualityOperator: past the end there is no quote to find
  for (let i = 0; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) return true;
  }
  return false;
}

/** A comment after a one-line value, kept when the value is replaced. */
function trailingComment(value: string): string {
  const quote = value[0];
  let rest = value;
  if (quote === '"' || quote === "'" || quote === '`') {
    let i = 1;
    // Stryker disable next-line EqualityOperator: past the end, what follows the value is empty either way
    for (; i < value.length && value[i] !== quote; i++) if (quote === '"' && value[i] === '\\') i++;
    rest = value.slice(i + 1);
  }
  // Stryker disable next-line Regex: `.*` runs to the end of the line either way.
  const m = /\s*#.*$/.exec(rest);
  return m ? m[0] : '';
}

export function setEnvVariable(text: string, name: string, value: string): EnvUpdate {
  const invalid = validEnvName(name);
  if (invalid) throw new Error(`"${name}" is not a variable name. ${invalid}`);
  const written = quoted(value);
  const lines = splitLines(text);
  // The last assignment of the name, as lines [first, last] (a quoted value may span lines).
  let found: { first: number; last: number; prefix: string; comment: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = ASSIGNMENT.exec(lines[i].body);
    if (!m) continue;
    const quote = openQuote(m[3]);
    // dotenv reads a value that is never closed as one unquoted line.
    const closing = quote ? lines.findIndex((l, j) => j > i && closes(l.body, quote)) : -1;
    const last = closing === -1 ? i : closing;
    // Stryker disable next-line ConditionalExpression: an unclosed quote leaves no comment to find anyway
    if (m[2] === name) found = { first: i, last, prefix: m[1], comment: last > i ? '' : trailingComment(m[3]) };
    i = last;
  }
  if (found) {
    const line = { body: `${found.prefix}${name}=${written}${found.comment}`, eol: lines[found.last].eol };
    lines.splice(found.first, found.last - found.first + 1, line);
    return { text: lines.map((l) => l.body + l.eol).join(''), replaced: true };
  }
  // A new line ends like the file's last line break does (CRLF files stay CRLF).
  const eol = [...lines].reverse().find((l) => l.eol)?.eol ?? '\n';
  const endsWithNewline = text === '' || /\n$/.test(text);
  return { text: `${text}${endsWithNewline ? '' : eol}${name}=${written}${eol}`, replaced: false };
}

/** A .env file's text; one that is not UTF-8 is refused rather than rewritten with its bytes changed. */
export function decodeEnvFile(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Error('The file is not UTF-8 text, so it was left as it was: pick a .env file, or copy the secret instead.');
  }
}
