/** The composer's chips: what the next message carries, each with a button that removes it. */
import * as l10n from '@vscode/l10n';
import { actionButton, el, icon } from '../shared/page';
import type { AttachmentChip } from './protocol';
import { attachmentIcon } from './turnView';

export function chipElements(items: readonly AttachmentChip[]): HTMLElement[] {
  return items.map((a) => {
    const chip = el('span', undefined, 'chip');
    chip.setAttribute('role', 'listitem');
    const remove = actionButton(undefined, 'tool', 'remove-attachment');
    remove.dataset.id = a.id;
    remove.setAttribute('aria-label', l10n.t('Remove {0}', a.name));
    remove.title = l10n.t('Remove');
    remove.append(icon('close'));
    chip.append(icon(attachmentIcon(a.kind)), el('span', a.name, 'chip-name'), remove);
    return chip;
  });
}
