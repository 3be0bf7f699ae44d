/**
 * Puts one variable into the text of a `.env` file, the way a person editing it would: the line
 * that sets it is replaced (the last one, which is the one dotenv loaders keep), or a line is
 * added at the end; every other byte stays as it was (comments, blank lines, CRLF endings, a
 * missing final newline). Used to hand a rotated signing secret to the user's app.
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

export function setEnvVariable(text: string, name: string, value: string): EnvUpdate {
  const invalid = validEnvName(name);
  if (invalid) throw new Error(`"${name}" is not a variable name. ${invalid}`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  // The line that sets it, and what comes before the name there (indentation, `export `).
  const setsIt = new RegExp(`^(\\s*(?:export\\s+)?)${name}\\s*=`);
  let last: { index: number; prefix: string } | undefined;
  lines.forEach((line, index) => {
    const m = setsIt.exec(line);
    if (m) last = { index, prefix: m[1] };
  });
  if (last) {
    lines[last.index] = `${last.prefix}${name}=${quoted(value)}`;
    return { text: lines.join(eol), replaced: true };
  }
  const line = `${name}=${quoted(value)}`;
  if (text === '') return { text: `${line}${eol}`, replaced: false };
  const endsWithNewline = /\r?\n$/.test(text);
  return { text: `${text}${endsWithNewline ? '' : eol}${line}${eol}`, replaced: false };
}
