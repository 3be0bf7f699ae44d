/**
 * The emulator's deterministic "model". The same conversation always gets the same reply, so
 * tests and demos can rely on it. Commands at the start of the last user message:
 *
 *   /markdown        a reply with headings, a list, a table and a code block
 *   /code [lang]     a short explanation and one fenced code block
 *   /long N          about N tokens of prose (for long-reply demos and benchmarks)
 *   /filter          the prompt is "blocked": HTTP 400 content_filter (hate, violence)
 *   /filter CATEGORY the same, with that category alone (jailbreak, indirect_attack, hate, ...);
 *                    protected_material_text / _code are found in the reply: it starts, then ends
 *                    with finish_reason content_filter naming that category (code with its citation)
 *   /annotate [CAT]  a plain reply annotated (not blocked) as protected material text, or CAT
 *   /filter-stream   the reply starts, then the stream ends with finish_reason content_filter
 *                    (Responses: the response ends incomplete, reason content_filter)
 *   /fail            (responses API) the background response ends as failed
 *   /incomplete      (responses API) the background response ends as incomplete
 *
 * A file sent with `<cursor/>` in it is a code completion request: the answer is the code to
 * insert there (codeCompletion.ts). Anything else is echoed back with a short note, so a reply visibly depends on the prompt.
 */
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { completeAtCursor } from './codeCompletion';
import { ANNOTATE_CATEGORIES, PROMPT_FILTER_CATEGORIES, REPLY_FILTER_CATEGORIES } from './filterResults';

export type Directive = 'echo' | 'complete' | 'markdown' | 'code' | 'long' | 'filter' | 'filter-stream' | 'annotate' | 'fail' | 'incomplete';

export interface Reply {
  directive: Directive;
  text: string;
  /** `/filter CATEGORY`: the one category the 400 names; `/annotate CATEGORY` or a reply-side `/filter`: the reply's. */
  filterCategory?: string;
}

const WORDS = (
  'the model streams tokens through a deployment while the editor renders markdown and code ' +
  'blocks webhooks arrive signed with a secret the listener verifies each delivery before it ' +
  'records the event latency usage and limits are measured per request and per minute'
).split(' ');

/** A small deterministic PRNG (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function prose(tokens: number, seed: number): string {
  const next = seededRandom(seed);
  const parts: string[] = [];
  let sentence: string[] = [];
  // Each word is about one token; stop once the text is long enough, then trim exactly.
  for (let count = 0; count < tokens * 1.2 + 8; count++) {
    sentence.push(WORDS[Math.floor(next() * WORDS.length)]);
    if (sentence.length >= 8 + Math.floor(next() * 10)) {
      const s = sentence.join(' ');
      parts.push(s[0].toUpperCase() + s.slice(1) + '.');
      sentence = [];
      if (parts.length % 5 === 0) parts.push('\n\n');
    }
  }
  const ids = encode(parts.join(' ').replace(/ \n\n /g, '\n\n'));
  return decode(ids.slice(0, tokens));
}

const MARKDOWN_REPLY = `# Emulator reply

This reply shows what the chat panel renders:

- **bold**, *italic* and \`inline code\`
- a [link](https://learn.microsoft.com/azure/ai-foundry/openai/)

| Deployment | Route |
|---|---|
| gpt-4o | v1 |
| o3-mini | deployment |

\`\`\`typescript
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

> Replies from the emulator are deterministic.`;

function codeReply(lang: string): string {
  const samples: Record<string, string> = {
    python: 'def fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nprint(fib(10))',
    typescript: 'function fib(n: number): number {\n  let [a, b] = [0, 1];\n  for (let i = 0; i < n; i++) [a, b] = [b, a + b];\n  return a;\n}\n\nconsole.log(fib(10));',
  };
  const key = samples[lang] ? lang : lang === 'py' ? 'python' : 'typescript';
  return `Here is a Fibonacci function in ${key}:\n\n\`\`\`${key}\n${samples[key]}\n\`\`\`\n\nIt runs in linear time.`;
}

/** A reply that matches published code is code; other reply-side verdicts fall on prose. */
const protectedReply = (category: string, text: string) => (category === 'protected_material_code' ? codeReply('python') : prose(40, hash(text)));

export function reply(lastUserMessage: string, deployment: string): Reply {
  const text = lastUserMessage.trim();
  const m = /^\/([a-z-]+)(?:\s+(\S+))?/.exec(text);
  switch (m?.[1]) {
    case 'markdown':
      return { directive: 'markdown', text: MARKDOWN_REPLY };
    case 'code':
      return { directive: 'code', text: codeReply((m[2] ?? 'typescript').toLowerCase()) };
    case 'long': {
      const n = Math.min(Math.max(parseInt(m[2] ?? '500', 10) || 500, 1), 100_000);
      return { directive: 'long', text: prose(n, hash(text)) };
    }
    case 'filter': {
      const inReply = REPLY_FILTER_CATEGORIES.find((c) => c === m[2]);
      if (inReply) return { directive: 'filter-stream', text: protectedReply(inReply, text), filterCategory: inReply };
      return { directive: 'filter', text: '', filterCategory: PROMPT_FILTER_CATEGORIES.find((c) => c === m[2]) };
    }
    case 'annotate': {
      const category = ANNOTATE_CATEGORIES.find((c) => c === m[2]);
      return { directive: 'annotate', text: category ? protectedReply(category, text) : prose(30, hash(text)), filterCategory: category };
    }
    case 'filter-stream':
      return { directive: 'filter-stream', text: prose(40, hash(text)) };
    case 'fail':
      return { directive: 'fail', text: '' };
    case 'incomplete':
      return { directive: 'incomplete', text: prose(30, hash(text)) };
  }
  const code = completeAtCursor(lastUserMessage);
  if (code !== undefined) return { directive: 'complete', text: code };
  return {
    directive: 'echo',
    text: `You said: ${text}\n\nThis is the local emulator answering as deployment "${deployment}". Try /markdown, /code python or /long 500.`,
  };
}

/** Token count of a text with the o200k tokenizer (GPT-4o family). */
export function countTokens(text: string): number {
  return encode(text).length;
}

/**
 * The reply cut into the pieces a stream sends, one tokenizer token each. Pieces never split a
 * UTF-8 character: a token that decodes to half a character is joined with the next.
 */
export function tokenPieces(text: string): string[] {
  const pieces: string[] = [];
  let pending: number[] = [];
  for (const id of encode(text)) {
    pending.push(id);
    const piece = decode(pending);
    if (piece.includes('\uFFFD')) continue;
    pieces.push(piece);
    pending = [];
  }
  if (pending.length) pieces.push(decode(pending));
  return pieces;
}
