/** What a local check found wrong in a JSONL file, line by line, and how to say it in one message. */

export interface LineProblem {
  /** 1-based; 0 for the file as a whole. */
  line: number;
  message: string;
}

/** Problems kept for display; the rest are only counted. */
export const MAX_PROBLEMS = 20;

export class Problems {
  readonly list: LineProblem[] = [];
  count = 0;

  /** A problem of the file as a whole (line 0) is always kept, and shown first. */
  add(line: number, message: string): void {
    this.count++;
    if (line === 0) this.list.unshift({ line, message });
    else if (this.list.length < MAX_PROBLEMS) this.list.push({ line, message });
  }
}

/** "train.jsonl: line 3 …; line 9 …; and 4 more problems." */
export function describeProblems(file: string, list: LineProblem[], count = list.length): string {
  const shown = list.slice(0, 3).map((p) => (p.line > 0 ? `line ${p.line}: ${p.message}` : p.message));
  const more = count - shown.length;
  return `${file}: ${shown.join('; ')}${more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : ''}.`;
}
