/**
 * A reasoning model's summary of its thinking, in a collapsed section above the answer, and the
 * notes on what the engine changed to get the reply. Both are untrusted: while streaming the summary
 * is set as text; once finished it goes through the same sanitising Markdown renderer as replies.
 * The content filter's verdicts on the reply sit behind a small badge beside them.
 */
import * as l10n from '@vscode/l10n';
import { filterAdvice, materialNotes, verdictPhrase, type FilterVerdict } from '../../service/contentFilter';
import type { Renderer } from './markdown';

function reasoningSection(): HTMLDetailsElement {
  const details = document.createElement('details');
  details.className = 'reasoning';
  const summary = document.createElement('summary');
  summary.textContent = l10n.t('Reasoning');
  const text = document.createElement('div');
  text.className = 'reasoning-text';
  details.append(summary, text);
  return details;
}

/** Adds streamed summary text to a turn, creating the section above its body on the first piece. */
export function appendReasoning(turn: Element, text: string): void {
  let section = turn.querySelector<HTMLDetailsElement>(':scope > details.reasoning');
  if (!section) {
    section = reasoningSection();
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
  const box = document.createElement('details');
  box.className = 'filter-badge';
  const head = document.createElement('summary');
  head.textContent = verdicts.some((v) => v.filtered) ? l10n.t('Content filter: blocked') : l10n.t('Content filter: {0} annotation(s)', verdicts.length);
  box.append(head);
  // A protected-material annotation names its source: the URL is the service's text, set as text, never a link.
  const notes = materialNotes(verdicts.filter((v) => !v.filtered));
  for (const line of [...verdicts.map((v) => (v.filtered ? verdictPhrase(v) : l10n.t('{0} (detected, not blocked)', verdictPhrase(v)))), ...notes, ...filterAdvice(verdicts)]) {
    const row = document.createElement('div');
    row.textContent = line;
    box.append(row);
  }
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
    const list = document.createElement('div');
    list.className = 'turn-notes';
    list.setAttribute('role', 'note');
    for (const n of notes) {
      const line = document.createElement('div');
      line.textContent = n;
      list.append(line);
    }
    turn.querySelector(':scope > .turn-foot')?.before(list);
  }
}
