/** What a local check found wrong in a JSONL file, line by line, and how to say it in one message. */
import * as l10n from '@vscode/l10n';

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
  const shown = list.slice(0, 3).map((p) => (p.line > 0 ? l10n.t('line {0}: {1}', p.line, p.message) : p.message));
  const more = count - shown.length;
  if (more > 0) shown.push(more === 1 ? l10n.t('and 1 more problem') : l10n.t('and {0} more problems', more));
  return l10n.t('{0}: {1}.', file, shown.join('; '));
}
