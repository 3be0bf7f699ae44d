/**
 * Who a SIP From or To header names, read as RFC 3261 writes it (§25.1):
 *
 *   from-spec    = ( name-addr / addr-spec ) *( SEMI from-param )
 *   name-addr    = [ display-name ] LAQUOT addr-spec RAQUOT
 *   display-name = *(token LWS) / quoted-string        (quoted-pair: "\" and one character)
 *
 * The caller writes every part of it. The display name is only what the caller calls itself; the
 * address is the addr-spec between the angle brackets that follow it, never a `<…>` inside the
 * quoted name. A value that does not follow the grammar is kept whole and said to be unparsed, so
 * nothing is guessed out of it. Plain data: the VS Code layer shows each part as text.
 */

export type SipParty =
  /** `name` is absent when the header gives none; `params` is what follows the address (`;tag=…`), as sent. */
  | { parsed: true; address: string; name?: string; params: string }
  | { parsed: false; raw: string };

// token = 1*(alphanum / "-" / "." / "!" / "%" / "*" / "_" / "+" / "`" / "'" / "~")
const TOKEN = /^[A-Za-z0-9\-.!%*_+`'~]+/;
// LWS / SWS: spaces and tabs (a folded line is unfolded before a header value reaches us).
const SPACE = /^[ \t]*/;
// An addr-spec: a URI's scheme, a colon and the rest, with nothing that ends or breaks one.
const URI = /^[A-Za-z][A-Za-z0-9+\-.]*:[^\s<>"]+$/;
// In the addr-spec form (no brackets) a URI cannot hold ",", "?" or ";" (§20.10): ";" starts the params.
const BARE_URI = /^[A-Za-z][A-Za-z0-9+\-.]*:[^\s<>",?;]+$/;
// *( SEMI generic-param ), generic-param = token [ EQUAL gen-value ], gen-value = token / host / quoted-string.
const PARAMS = /^(?:[ \t]*;[ \t]*[A-Za-z0-9\-.!%*_+`'~]+(?:[ \t]*=[ \t]*(?:[A-Za-z0-9\-.!%*_+`'~:[\]]+|"(?:[^"\\\r\n]|\\[^\r\n])*"))?)*[ \t]*$/;

/** A quoted-string at the start of `s`: its content unescaped and what follows it, or undefined. */
function quoted(s: string): { text: string; rest: string } | undefined {
  let text = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') return { text, rest: s.slice(i + 1) };
    if (c === '\r' || c === '\n') return undefined;
    if (c === '\\') {
      const next = s[i + 1];
      if (next === undefined || next === '\r' || next === '\n') return undefined;
      text += next;
      i++;
    } else {
      text += c;
    }
  }
  return undefined;
}

/** The display name (tokens or a quoted-string) before `<`, and the rest from `<`; undefined when none fits. */
function displayName(s: string): { name?: string; rest: string } | undefined {
  if (s.startsWith('"')) {
    const q = quoted(s);
    if (!q) return undefined;
    const rest = q.rest.replace(SPACE, '');
    return rest.startsWith('<') ? { name: q.text, rest } : undefined;
  }
  const words: string[] = [];
  let rest = s;
  for (;;) {
    const word = TOKEN.exec(rest)?.[0];
    if (!word) break;
    words.push(word);
    rest = rest.slice(word.length);
    const gap = SPACE.exec(rest)![0];
    rest = rest.slice(gap.length);
    if (!gap && !rest.startsWith('<')) return undefined;
  }
  return rest.startsWith('<') ? { ...(words.length ? { name: words.join(' ') } : {}), rest } : undefined;
}

/** Reads a From or To header value; undefined for none or an empty one. */
export function parseSipParty(value: string | undefined): SipParty | undefined {
  if (value === undefined) return undefined;
  const s = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (!s) return undefined;
  const unparsed: SipParty = { parsed: false, raw: value };
  const named = displayName(s);
  if (named) {
    const close = named.rest.indexOf('>');
    if (close < 0) return unparsed;
    const address = named.rest.slice(1, close);
    const params = named.rest.slice(close + 1);
    if (!URI.test(address) || !PARAMS.test(params)) return unparsed;
    return { parsed: true, address, ...(named.name ? { name: named.name } : {}), params: params.trim() };
  }
  const semi = s.indexOf(';');
  const address = (semi < 0 ? s : s.slice(0, semi)).replace(/[ \t]+$/, '');
  const params = semi < 0 ? '' : s.slice(semi);
  if (!BARE_URI.test(address) || !PARAMS.test(params)) return unparsed;
  return { parsed: true, address, params: params.trim() };
}
