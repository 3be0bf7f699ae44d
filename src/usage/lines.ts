/**
 * Reading the usage log's lines fast: in chunks of 1 MiB, only the chunk and the line in hand in
 * memory. Each chunk's whole lines are decoded as one string (a line cut by the chunk's end waits,
 * as bytes, for the next chunk).
 */
import { isAscii } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Calls `onLine` for every non-empty whole line of an open file from byte `start` on. Resolves to
 * where the last whole line ends (`end`: a line ends at its newline) and the text after it, a
 * line still being written or torn, undefined when there is none.
 */
export async function readLinesFrom(file: FileHandle, start: number, onLine: (line: string) => void): Promise<{ end: number; rest?: string }> {
  const stream = file.createReadStream({ start, highWaterMark: 1 << 20, autoClose: false });
  let rest: Buffer | undefined;
  let pos = start;
  let end = start;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const at = pos;
    pos += chunk.length;
    let from = 0;
    if (rest) {
      // The line the last chunk cut: its start, and its end from this chunk.
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        rest = Buffer.concat([rest, chunk]);
        continue;
      }
      eachLineOf(decode(Buffer.concat([rest, chunk.subarray(0, nl)])), onLine);
      from = nl + 1;
      end = at + from;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from) {
      eachLineOf(decode(chunk.subarray(from, last)), onLine);
      end = at + last + 1;
    }
    // Copied: the stream may reuse its chunk.
    rest = last + 1 < chunk.length ? Buffer.from(chunk.subarray(Math.max(last + 1, from))) : undefined;
  }
  return { end, rest: rest && decode(rest) };
}

/** Calls `onLine` for every non-empty line of a file, the last one with or without its newline (none when the file does not exist). */
export async function forEachLine(path: string, onLine: (line: string) => void): Promise<void> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const { rest } = await readLinesFrom(file, 0, onLine);
    if (rest) onLine(rest);
  } finally {
    await file.close();
  }
}

/** An ASCII chunk (the usual one: names are seldom more) decodes as Latin-1 at twice the speed. */
const decode = (bytes: Buffer) => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');

function eachLineOf(text: string, onLine: (line: string) => void): void {
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    if (nl > start) onLine(text.slice(start, nl));
    start = nl + 1;
  }
  if (start < text.length) onLine(text.slice(start));
}
