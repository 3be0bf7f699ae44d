/**
 * Reads a `.env` file the way the `dotenv` npm package does, keeping where each assignment sits so
 * that the writer can replace one without touching the others. Its rules, which the writer must
 * share or it deletes variables (issue 25):
 * - a quoted value closes only at a quote followed by spaces and then the end of a line or a `#`;
 *   among the candidates the last one before the first unescaped quote wins, so `"old` followed by
 *   lines holding quotes elsewhere is not read on to them;
 * - a value whose quote never closes is one unquoted line;
 * - line breaks are `\n`, `\r\n` or a lone `\r`; spaces around `=` (and before the value's
 *   opening quote) may include line breaks; `KEY: value` is an assignment too.
 * Checked against the package itself in the tests, over many tricky files.
 */

export interface EnvAssignment {
  key: string;
  value: string;
  /** Offsets in the original text: where the key starts and where the value (with its closing quote) ends. */
  start: number;
  end: number;
}

const KEY_CHAR = /[A-Za-z0-9_.-]/;

/** The whitespace of JavaScript's `\s`, line breaks included. */
function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

function isLineEnd(ch: string | undefined): boolean {
  return ch === '\n' || ch === '\u2028' || ch === '\u2029';
}

/** The text with every line break as `\n`, and each of its offsets in the original text. */
function normalise(raw: string): { t: string; at: number[] } {
  let t = '';
  const at: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    at.push(i);
    if (raw[i] === '\r') {
      t += '\n';
      if (raw[i + 1] === '\n') i++;
    } else t += raw[i];
  }
  at.push(raw.length);
  return { t, at };
}

export function parseEnv(raw: string): EnvAssignment[] {
  const { t, at } = normalise(raw);
  const out: EnvAssignment[] = [];
  const n = t.length;
  const toLineEnd = (i: number): number => {
    while (i < n && !isLineEnd(t[i])) i++;
    return i;
  };
  let o = 0;
  while (o < n) {
    while (o < n && isSpace(t[o])) o++;
    if (o >= n) break;
    if (t[o] === '#') {
      o = toLineEnd(o);
      continue;
    }
    // `export KEY=…`: the word is skipped only when a key follows it.
    let afterExport = -1;
    if (t.startsWith('export', o) && o + 6 < n && isSpace(t[o + 6])) {
      let s = o + 7;
      while (s < n && isSpace(t[s])) s++;
      if (KEY_CHAR.test(t[s] ?? '')) {
        afterExport = o + 6;
        o = s;
      }
    }
    const keyStart = o;
    while (o < n && KEY_CHAR.test(t[o])) o++;
    if (o === keyStart) {
      o = toLineEnd(o);
      continue;
    }
    const key = t.slice(keyStart, o);
    const keyEnd = o;
    while (o < n && isSpace(t[o])) o++;
    if (t[o] === '=') o++;
    else if (t[o] === ':' && o === keyEnd && isSpace(t[o + 1])) o += 2;
    else {
      o = toLineEnd(afterExport === -1 ? keyEnd : afterExport);
      continue;
    }
    const valueStart = o;
    let l = o;
    while (l < n && isSpace(t[l])) l++;
    const quoted = closingQuote(t, l);
    let value: string;
    let end: number;
    if (quoted) {
      value = t.slice(l + 1, quoted.at);
      end = quoted.at + 1;
      o = t[quoted.next] === '#' ? toLineEnd(quoted.next) : quoted.next;
    } else {
      let lineEnd = t.indexOf('\n', valueStart);
      if (lineEnd === -1) lineEnd = n;
      let hash = t.indexOf('#', valueStart);
      if (hash === -1 || hash > lineEnd) hash = lineEnd;
      let f = valueStart;
      let h = hash;
      while (f < h && isSpace(t[f])) f++;
      while (h > f && isSpace(t[h - 1])) h--;
      value = unquoteWhole(t.slice(f, h));
      end = h > f ? h : valueStart;
      o = hash < lineEnd ? toLineEnd(hash) : hash;
    }
    if (t[l] === '"' && (quoted || l < o) && value.includes('\\')) value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    out.push({ key, value, start: at[keyStart], end: at[end] });
  }
  return out;
}

/** Where a value opening with a quote at `open` closes, if it does (see the rules above). */
function closingQuote(t: string, open: number): { at: number; next: number } | undefined {
  const q = t[open];
  if (q !== '"' && q !== "'" && q !== '`') return undefined;
  let found: { at: number; next: number } | undefined;
  for (let s = t.indexOf(q, open + 1); s !== -1; s = t.indexOf(q, s + 1)) {
    const escaped = t[s - 1] === '\\';
    let w = s + 1;
    while (w < t.length && !isLineEnd(t[w]) && isSpace(t[w])) w++;
    if (w === t.length || isLineEnd(t[w]) || t[w] === '#') found = { at: s, next: w };
    if (!escaped) break;
  }
  return found;
}

/** An unquoted value that is wrapped in a pair of quotes all the same loses them. */
function unquoteWhole(v: string): string {
  if (/[\u2028\u2029]/.test(v)) return v.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
  const q = v[0];
  return v.length >= 2 && (q === '"' || q === "'" || q === '`') && v[v.length - 1] === q ? v.slice(1, -1) : v;
}
