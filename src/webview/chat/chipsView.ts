/** The composer's chips: what the next message carries, each with a button that removes it. */
import * as l10n from '@vscode/l10n';
import type { AttachmentChip } from './protocol';

export function chipElements(items: readonly AttachmentChip[]): HTMLElement[] {
  return items.map((a) => {
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.setAttribute('role', 'listitem');
    const icon = a.kind === 'image' ? 'file-media' : a.kind === 'file' ? 'file' : 'list-selection';
    chip.innerHTML = `<span class="codicon codicon-${icon}" aria-hidden="true"></span><span class="chip-name"></span>`;
    chip.querySelector('.chip-name')!.textContent = a.name;
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'tool';
    remove.dataset.action = 'remove-attachment';
    remove.dataset.id = a.id;
    remove.setAttribute('aria-label', l10n.t('Remove {0}', a.name));
    remove.title = l10n.t('Remove');
    remove.innerHTML = '<span class="codicon codicon-close" aria-hidden="true"></span>';
    chip.append(remove);
    return chip;
  });
}
