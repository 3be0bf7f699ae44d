/**
 * A caller or callee as the user reads it: the address first, as the address; the display name
 * after it, as the name the caller gave (anyone can write any name); a header that does not read
 * as a SIP address, whole and said to be unparsed. Every part is text (plainText.ts). No `vscode`
 * import: plain Node tests run it.
 */
import * as l10n from '@vscode/l10n';
import type { SipParty } from '../../webhooks/inspect/sipParty';
import { markdownLine, plainLine, rowText } from '../plainText';

/** How much of an address and of a name one line keeps (a row, a notification). */
const ADDRESS_MAX = 120;
const NAME_MAX = 80;

function describe(p: SipParty, text: (s: string, max: number) => string): string {
  if (!p.parsed) {
    return l10n.t({ message: '{0} (unparsed)', args: [text(p.raw, ADDRESS_MAX)], comment: 'a SIP From or To header shown whole: it does not read as an address' });
  }
  if (!p.name) return text(p.address, ADDRESS_MAX);
  return l10n.t({
    message: '{0} (name given: "{1}")',
    args: [text(p.address, ADDRESS_MAX), text(p.name, NAME_MAX)],
    comment: 'a SIP address, then the display name the caller wrote beside it (nobody checks it)',
  });
}

/** One line for a notification or a quick pick: no link, no codicon. */
export const partyLine = (p: SipParty): string => describe(p, plainLine);

/** One line for a tree row's label or description (VS Code shows those as text). */
export const partyRow = (p: SipParty): string => describe(p, rowText);

/** The same inside a Markdown tooltip. */
export const partyMarkdown = (p: SipParty): string => describe(p, markdownLine);
