/**
 * Where a file named by an outside id goes: a batch id from the service or from a command's
 * arguments, a marker named by one. The id is checked here, where the path is made, so every
 * caller gets the same rule: letters, digits, `_` and `-` only, at most 200, so it names one entry
 * of `dir` and never climbs out of it (`../x`, `a/b`, `C:x`, an empty name).
 */
import * as l10n from '@vscode/l10n';
import { join } from 'node:path';

const STORABLE = /^[\w-]{1,200}$/;

/** `dir/<id>/<names…>`, or an error naming the id when it cannot name a file. */
export function storedIdPath(dir: string, id: string, ...names: string[]): string {
  if (typeof id !== 'string' || !STORABLE.test(id)) {
    throw new Error(l10n.t('"{0}" is not an id this workbench can store a file by.', String(id).slice(0, 100)));
  }
  return join(dir, id, ...names);
}
