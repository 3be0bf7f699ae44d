/**
 * Which documents never send a byte: files matched by the exclude patterns (gitignore syntax,
 * read with the `ignore` package, as the .env trust code reads .gitignore), files git ignores,
 * untitled documents unless the user enabled them, documents of an untrusted folder unless the
 * user allowed that folder, and anything that is not a file (a diff, an output, a settings view).
 */
import ignore from 'ignore';
import { gitignoreSays } from '../../storage/gitignore';

/** `aoaiWorkbench.inline.exclude`'s default: environment files, keys and certificates, secrets folders. */
export const DEFAULT_EXCLUDE: readonly string[] = ['.env*', '*.pem', '*.key', '**/secrets/**'];

export type Withheld = 'excluded' | 'gitignored' | 'untitled' | 'untrusted' | 'notAFile';

export interface DocumentFacts {
  /** `file`, `untitled`, `vscode-remote` (a remote or code-server window's files), or anything else. */
  scheme: string;
  /** The file on disk (for git's ignore files); none for an untitled document. */
  fsPath?: string;
  /** Its path relative to its workspace folder, else its absolute path. */
  relativePath: string;
}

export interface ExclusionRules {
  patterns: readonly string[];
  allowUntitled: boolean;
  /** The document's folder is trusted, or the user allowed suggestions there. */
  trusted: boolean;
}

const FILE_SCHEMES = new Set(['file', 'vscode-remote']);

/** The first pattern that matches `relativePath`, if any. A pattern the `ignore` package refuses matches nothing. */
export function matchingPattern(patterns: readonly string[], relativePath: string): string | undefined {
  const rel = relativePath.replace(/\\/g, '/').replace(/^([a-zA-Z]:)?\/+/, '');
  if (!rel) return undefined;
  for (const p of patterns) {
    try {
      if (ignore().add(p).ignores(rel)) return p;
    } catch {
      // Not a pattern the package reads (e.g. a path with `..`): it matches nothing.
    }
  }
  return undefined;
}

/** A git-ignored file is excluded; `gitignoreSays` reads the repository's ignore files, cached a few seconds per file. */
export class GitIgnoredFiles {
  private readonly known = new Map<string, { at: number; ignored: Promise<boolean> }>();

  constructor(
    private readonly maxAgeMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  ignored(fsPath: string): Promise<boolean> {
    const hit = this.known.get(fsPath);
    if (hit && this.now() - hit.at < this.maxAgeMs) return hit.ignored;
    const ignored = gitignoreSays(fsPath).then((v) => v === true, () => false);
    if (this.known.size > 500) this.known.clear();
    this.known.set(fsPath, { at: this.now(), ignored });
    return ignored;
  }
}

/** Why nothing may be sent for this document, or undefined when it may. */
export async function withheld(doc: DocumentFacts, rules: ExclusionRules, git: GitIgnoredFiles): Promise<Withheld | undefined> {
  if (doc.scheme === 'untitled') return rules.allowUntitled ? (rules.trusted ? undefined : 'untrusted') : 'untitled';
  if (!FILE_SCHEMES.has(doc.scheme) || !doc.fsPath) return 'notAFile';
  if (!rules.trusted) return 'untrusted';
  if (matchingPattern(rules.patterns, doc.relativePath)) return 'excluded';
  if (await git.ignored(doc.fsPath)) return 'gitignored';
  return undefined;
}
