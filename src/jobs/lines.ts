/**
 * Reads a file a line at a time as it streams from disk, with each line's byte offset, so that
 * no file is ever held whole in memory (a batch's input or output can be hundreds of MB).
 */
import { open } from 'node:fs/promises';
import * as l10n from '@vscode/l10n';

export interface Line {
  /** The line's bytes, without its `\n` (nor a `\r` before it). */
  bytes: Buffer;
  /** 1-based. */
  number: number;
  /** Byte offset of the line's start in the file. */
  offset: number;
}

/** Lines longer than this are reported as too long instead of being held (the service caps requests far below). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class LineTooLongError extends Error {
  override readonly name = 'LineTooLongError';
  constructor(
    readonly line: number,
    limit = MAX_LINE_BYTES,
  ) {
    super(
      limit >= 1024 * 1024
        ? l10n.t('Line {0} is longer than {1} MB: is this a JSONL file (one JSON object per line)?', line, limit / 1024 / 1024)
        : l10n.t('Line {0} is longer than {1} bytes: is this a JSONL file (one JSON object per line)?', line, limit),
    );
  }
}

/** Bytes read from disk at a time, into one buffer used again and again (no garbage per read). */
const CHUNK = 256 * 1024;

/**
 * Calls `onLine` for every line, in order; returning `false` stops early. The last line counts
 * even without a final newline; an empty last line after a final newline does not. A line's
 * bytes are only valid during the call: copy them to keep them.
 */
export async function eachLine(
  path: string,
  onLine: (line: Line) => boolean | void,
  options: { signal?: AbortSignal; maxLineBytes?: number } = {},
): Promise<number> {
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  // A line that spans reads: its pieces, joined once when it ends (joining at each read would
  // copy a long line over and over: quadratic in its length).
  let carry: Buffer[] = [];
  let carryLength = 0;
  let carryOffset = 0;
  let position = 0;
  let number = 0;
  const emit = (bytes: Buffer, offset: number): boolean => {
    number++;
    const end = bytes.at(-1) === 13 ? bytes.length - 1 : bytes.length;
    return onLine({ bytes: bytes.subarray(0, end), number, offset }) !== false;
  };
  const takeCarry = (last?: Buffer): Buffer => {
    const whole = Buffer.concat(last ? [...carry, last] : carry, carryLength + (last?.length ?? 0));
    carry = [];
    carryLength = 0;
    return whole;
  };
  const file = await open(path, 'r');
  const buffer = Buffer.allocUnsafe(CHUNK);
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl);
        const carried = carry.length > 0;
        const whole = carried ? takeCarry(piece) : piece;
        if (!emit(whole, carried ? carryOffset : position + start)) return number;
        start = nl + 1;
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty rest carries nothing: the next line starts where it would
      if (start < chunk.length) {
        // The start of a line the next read finishes: copied, since the buffer is read into again.
        if (!carry.length) carryOffset = position + start;
        carry.push(Buffer.from(chunk.subarray(start)));
        carryLength += chunk.length - start;
        if (carryLength > maxLine) throw new LineTooLongError(number + 1, maxLine);
      }
      position += bytesRead;
    }
    if (carryLength) emit(takeCarry(), carryOffset);
    return number;
  } finally {
    await file.close();
  }
}

/** A line's JSON object, or why it is not one ("it is …", for messages that name the line). */
export function parseObject(bytes: Buffer): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return { problem: l10n.t('it is not valid JSON ({0})', (err as Error).message) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: l10n.t('it is not a JSON object') };
  return { value: value as Record<string, unknown> };
}

/** True for a line of nothing but spaces and tabs. */
export function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 32 && b !== 9) return false;
  return true;
}
