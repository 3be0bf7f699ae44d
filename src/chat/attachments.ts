/**
 * Context attached to a message: an editor selection, a file, an image. Text goes into the
 * message as fenced blocks the model can tell apart from the question; an image goes as an
 * `image_url` part, only to models whose profile takes images.
 */
import type { ChatContentPart } from '../service/types';
import type { Attachment } from './model';
import { IMAGE_TOKENS, estimateTokens } from './tokenEstimate';

/** Largest text (selection or file) attached whole. */
export const MAX_TEXT_ATTACHMENT = 200_000;
/** Largest image attached (the service takes up to 20 MB; conversations are saved with their images). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

export const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

type TextAttachment = Attachment & { text: string };
const hasText = (a: Attachment): a is TextAttachment => a.kind !== 'image' && a.text !== undefined;

function textBlock(a: TextAttachment): string {
  const what = a.kind === 'selection' ? `Selection from ${a.name}` : `File ${a.name}`;
  const text = a.text;
  const f = fence(text);
  return `${what}:\n${f}${a.language ?? ''}\n${text}${text.endsWith('\n') ? '' : '\n'}${f}`;
}

/** The content of a user message with its attachments: a string, or parts when it carries images. */
export function messageContent(text: string, attachments: readonly Attachment[] | undefined): string | ChatContentPart[] {
  if (!attachments?.length) return text;
  const blocks = attachments.filter(hasText).map(textBlock);
  const full = [text, ...blocks].join('\n\n');
  const images = attachments.filter((a) => a.kind === 'image' && a.dataUrl);
  if (images.length === 0) return full;
  return [{ type: 'text', text: full }, ...images.map((a): ChatContentPart => ({ type: 'image_url', image_url: { url: a.dataUrl! } }))];
}

/** Whether a file's bytes look like text (no NUL byte in its first 8 KB, valid UTF-8). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 65536));
    return true;
  } catch (err) {
    // A multi-byte character cut at 64 KB is still text.
    return bytes.length > 65536 && err instanceof TypeError && isCutAtEnd(bytes.subarray(0, 65536));
  }
}

function isCutAtEnd(bytes: Uint8Array): boolean {
  for (let cut = 1; cut <= 3; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - cut));
      return true;
    } catch {
      /* try a shorter prefix */
    }
  }
  return false;
}

/** About what attachments add to a message, in tokens (for the context meter). */
export function attachmentTokens(attachments: readonly Attachment[] | undefined): number {
  return (attachments ?? []).reduce((n, a) => n + (a.kind === 'image' ? IMAGE_TOKENS : estimateTokens(a.text ?? '') + 10), 0);
}
