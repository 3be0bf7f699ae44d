/**
 * Puts one variable into the text of a `.env` file, the way a person editing it would: the
 * assignment that sets it is replaced (the last one, which is the one dotenv loaders keep), or a
 * line is added at the end; every other byte stays as it was (comments, blank lines, each line's
 * own ending, a missing final newline). Used to hand a rotated signing secret to the user's app.
 */
import * as l10n from '@vscode/l10n';
import { parseEnv, type EnvAssignment } from './dotenvParse';

/** A name shells and dotenv loaders accept. */
export function validEnvName(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? undefined : l10n.t('Use letters, digits and underscores, not starting with a digit (e.g. {0}).', 'WEBHOOK_SECRET');
}

/** Single quotes keep the value literal in dotenv and shells; a secret never holds one. */
function quoted(value: string): string {
  if (/['\r\n]/.test(value)) throw new Error(l10n.t('The value cannot be written to a .env file: it holds a quote or a line break.'));
  return /^[A-Za-z0-9_+/=.:@-]*$/.test(value) ? value : `'${value}'`;
}

export interface EnvUpdate {
  text: string;
  /** Whether an existing line was replaced (else one was added). */
  replaced: boolean;
}

/**
 * Replaces the last assignment of `name` as dotenv reads the file (the key through the value's
 * closing quote; spacing, `export` and a comment after it stay), or adds a line at the end. The
 * result is read back with the same rules: if any other variable would read differently, the
 * value is tried in double quotes (whose opening quote ends an earlier unclosed one's search as
 * the old value's did), and if that does not keep them either, nothing is written.
 */
export function setEnvVariable(text: string, name: string, value: string): EnvUpdate {
  const invalid = validEnvName(name);
  if (invalid) throw new Error(`${l10n.t('"{0}" is not a variable name.', name)} ${invalid}`);
  const before = parseEnv(text);
  const forms = [quoted(value), ...(/["\\]/.test(value) ? [] : [`"${value}"`])];
  for (const form of forms) {
    const update = withAssignment(text, before, `${name}=${form}`, name);
    if (sameOtherVariables(before, parseEnv(update.text), name, value)) return update;
  }
  throw new Error(l10n.t('The .env file is written in a way this editor cannot change safely around {0}, so it was left as it was: set {0} by hand.', name));
}

function withAssignment(text: string, before: EnvAssignment[], written: string, name: string): EnvUpdate {
  const last = before.filter((a) => a.key === name).pop();
  if (last) return { text: text.slice(0, last.start) + written + text.slice(last.end), replaced: true };
  // A new line ends like the file's last line break does (CRLF files stay CRLF).
  const eol = /(\r\n|\n|\r)[^\r\n]*$/.exec(text)?.[1] ?? '\n';
  const endsWithBreak = text === '' || /[\r\n]$/.test(text);
  return { text: `${text}${endsWithBreak ? '' : eol}${written}${eol}`, replaced: false };
}

/** Every variable but `name` reads the same, and `name` reads as `value`. */
function sameOtherVariables(before: EnvAssignment[], after: EnvAssignment[], name: string, value: string): boolean {
  const values = (list: EnvAssignment[]): Map<string, string> => new Map(list.map((a) => [a.key, a.value]));
  const was = values(before);
  const now = values(after);
  was.set(name, value);
  if (was.size !== now.size) return false;
  for (const [k, v] of was) if (now.get(k) !== v) return false;
  return true;
}

/** A .env file's text; one that is not UTF-8 is refused rather than rewritten with its bytes changed. */
export function decodeEnvFile(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Error(l10n.t('The file is not UTF-8 text, so it was left as it was: pick a .env file, or copy the secret instead.'));
  }
}
