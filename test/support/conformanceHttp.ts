/** Plain requests to the emulator for the conformance check: the status, content type and text as sent. */
import type { Emulator } from '../../src/emulator/server';
import type { Answer } from './apiConformance';

export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

/** A sender for `emu`, with its key unless `headers` set another; a FormData body goes as multipart. */
export function sender(emu: Emulator): Send {
  return async (method, path, body, headers = {}) => {
    const form = body instanceof FormData;
    const res = await fetch(`${emu.url}${path}`, {
      method,
      headers: { 'api-key': emu.apiKey, ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
    });
    return { status: res.status, contentType: (res.headers.get('content-type') ?? '').split(';')[0].trim(), text: await res.text() };
  };
}

/** The body of a JSON answer, after its status was checked. */
export const json = <T = Record<string, unknown>>(a: Answer): T => JSON.parse(a.text) as T;

/** A prompt of about `words` words, the same every time (long prompts repeat for the prompt cache). */
export const longPrompt = (words: number) => Array.from({ length: words }, (_, i) => `word${i % 97}`).join(' ');
