/**
 * Token counting as VS Code's chat asks for it: every message of the conversation, again on each
 * request. Ours (the provider's counter: o200k, a count kept per text) against gpt-tokenizer
 * called naively (`encode(text).length` per message), on the same 4,000-token conversation.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createO200kCounter } from '../src/chat/lm/o200k';
import type { NeutralMessage } from '../src/chat/engine/messages';
import { seededRandom } from '../src/emulator/responder';

const WORDS = 'the provider streams tokens from a deployment while the editor shows code and markdown; each request counts every message again before it is sent'.split(' ');
const CODE = 'function add(a: number, b: number): number {\n  return a + b; // sum\n}\nconst total = [1, 2, 3].map((x) => add(x, 1)).reduce((s, x) => s + x, 0);\n';

/** A conversation of about `tokens` tokens: alternating turns of prose, some with code. */
export function conversation(tokens: number, seed = 7): NeutralMessage[] {
  const next = seededRandom(seed);
  const messages: NeutralMessage[] = [];
  let total = 0;
  for (let i = 0; total < tokens; i++) {
    let text = '';
    while (encode(text).length < 150 + Math.floor(next() * 100)) text += `${WORDS[Math.floor(next() * WORDS.length)]} `;
    if (i % 3 === 2) text += `\n\n\`\`\`ts\n${CODE}\`\`\`\n`;
    total += encode(text).length + 3;
    messages.push({ role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', text }] });
  }
  return messages;
}

function perSecond(fn: () => number, ms = 1500): { perSec: number; result: number } {
  let result = fn();
  for (let i = 0; i < 3; i++) result = fn();
  let n = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < ms && n < 1_000_000) {
    result = fn();
    n++;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  return { perSec: (n / elapsed) * 1000, result };
}

export function benchTokenCount(): { tokens: number; messages: number; ours: number; cold: number; naive: number } {
  const chat = conversation(4000);
  const text = (m: NeutralMessage) => (m.parts[0] as { text: string }).text;
  const naive = perSecond(() => chat.reduce((n, m) => n + encode(text(m)).length + 3, 0));
  // As the provider runs: one counter for the window, asked again each request.
  const counter = createO200kCounter();
  const ours = perSecond(() => chat.reduce((n, m) => n + counter.message(m), 0));
  // The first request of a conversation: nothing counted yet.
  const cold = perSecond(() => {
    const fresh = createO200kCounter();
    return chat.reduce((n, m) => n + fresh.message(m), 0);
  });
  if (ours.result !== naive.result || cold.result !== naive.result) throw new Error(`counts disagree: ${ours.result}, ${cold.result} vs ${naive.result}`);
  return { tokens: naive.result, messages: chat.length, ours: ours.perSec, cold: cold.perSec, naive: naive.perSec };
}
