/**
 * A reasoning model's summary of its thinking, in a collapsed section above the answer, and the
 * notes on what the engine changed to get the reply. Both are untrusted: while streaming the summary
 * is set as text; once finished it goes through the same sanitising Markdown renderer as replies.
 * The content filter's verdicts on the reply sit behind a small badge beside them.
 */
import * as l10n from '@vscode/l10n';
import { filterAdvice, materialNotes, verdictPhrase, type FilterVerdict } from '../../service/contentFilter';
import { el } from '../shared/page';
import type { Renderer } from './markdown';

/** Adds streamed summary text to a turn, creating the section above its body on the first piece. */
export function appendReasoning(turn: Element, text: string): void {
  let section = turn.querySelector<HTMLDetailsElement>(':scope > details.reasoning');
  if (!section) {
    section = el('details', undefined, 'reasoning');
    section.append(el('summary', l10n.t('Reasoning')), el('div', undefined, 'reasoning-text'));
    turn.querySelector(':scope > .turn-body')?.before(section);
  }
  const body = section.querySelector('.reasoning-text')!;
  body.textContent = (body.textContent ?? '') + text;
}

/**
 * The content filter's verdicts on a reply, behind a small badge: collapsed, never hidden, each
 * verdict as text (names from the service are text, not markup).
 */
function filterBadge(verdicts: readonly FilterVerdict[]): HTMLElement {
  const box = el('details', undefined, 'filter-badge');
  box.append(el('summary', verdicts.some((v) => v.filtered) ? l10n.t('Content filter: blocked') : l10n.t('Content filter: {0} annotation(s)', verdicts.length)));
  // A protected-material annotation names its source: the URL is the service's text, set as text, never a link.
  const notes = materialNotes(verdicts.filter((v) => !v.filtered));
  const lines = [...verdicts.map((v) => (v.filtered ? verdictPhrase(v) : l10n.t('{0} (detected, not blocked)', verdictPhrase(v)))), ...notes, ...filterAdvice(verdicts)];
  box.append(...lines.map((line) => el('div', line)));
  return box;
}

/** The finished turn's extras: its reasoning summary (rendered) and its notes. */
export function addTurnExtras(
  turn: HTMLElement,
  reasoningSummary: string | undefined,
  notes: readonly string[] | undefined,
  renderer: Renderer,
  verdicts?: readonly FilterVerdict[],
): void {
  if (verdicts?.length) turn.querySelector(':scope > .turn-foot')?.before(filterBadge(verdicts));
  if (reasoningSummary) {
    appendReasoning(turn, '');
    turn.querySelector('.reasoning-text')!.innerHTML = renderer.render(reasoningSummary);
  }
  if (notes?.length) {
    const list = el('div', undefined, 'turn-notes');
    list.setAttribute('role', 'note');
    list.append(...notes.map((n) => el('div', n)));
    turn.querySelector(':scope > .turn-foot')?.before(list);
  }
}
