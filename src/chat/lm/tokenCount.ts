/**
 * Token counts for VS Code's `provideTokenCount`, which asks for every message of every request:
 * a conversation is counted again each turn, so counts are kept per text (bounded, oldest out)
 * and a repeated message costs a map lookup instead of a BPE pass. Per-message overhead and image
 * estimates follow OpenAI's published accounting.
 */
import type { ImagePart, NeutralMessage, MessagePart } from '../engine/messages';

/** Tokens every chat message adds around its content (role and separators). */
const PER_MESSAGE = 3;
const PER_NAME = 1;
const PER_TOOL_CALL = 3;

export class TokenCounter {
  private readonly cache = new Map<string, number>();

  /** `encode` counts one text; `maxEntries` bounds the memory the cache may take. */
  constructor(
    private readonly encode: (text: string) => number,
    private readonly maxEntries = 4096,
  ) {}

  text(text: string): number {
    if (!text) return 0;
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    const n = this.encode(text);
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(text, n);
    return n;
  }

  message(m: NeutralMessage): number {
    let n = PER_MESSAGE + (m.name ? PER_NAME : 0);
    for (const p of m.parts) n += this.part(p);
    return n;
  }

  private part(p: MessagePart): number {
    switch (p.type) {
      case 'text':
        return this.text(p.text);
      case 'image':
        return imageTokens(p);
      case 'toolCall':
        return PER_TOOL_CALL + this.text(p.name) + this.text(typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}));
      case 'toolResult':
        return p.parts.reduce((n, q) => n + (q.type === 'text' ? this.text(q.text) : imageTokens(q)), PER_MESSAGE);
    }
  }
}

/** Width and height from a PNG header; other formats are not read (a 1024×1024 image is assumed). */
function pngSize(data: Uint8Array): [number, number] | undefined {
  const sig = [0x89, 0x50, 0x4e, 0x47];
  if (data.length < 24 || sig.some((b, i) => data[i] !== b)) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

/** OpenAI's high-detail accounting: fit in 2048², shortest side to 768, 170 per 512² tile plus 85. */
export function imageTokens(image: Pick<ImagePart, 'data'>): number {
  // A zero side needs no case of its own: it makes no tiles, so 85.
  let [w, h] = pngSize(image.data) ?? [1024, 1024];
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shrink = Math.min(1, 768 / Math.min(w, h));
  w *= shrink;
  h *= shrink;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}
