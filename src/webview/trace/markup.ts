/** The trace timeline page's markup (no scripts): a heading, a summary, and the list of spans the script fills. */
import * as l10n from '@vscode/l10n';
import { escapeHtml as h } from '../shared/escape';

export function traceBodyHtml(): string {
  const keys = l10n.t('Up and Down move between spans, Home and End go to the first and last, Enter shows or hides a span\'s attributes.');
  return `<header>
  <h1 id="title">${h(l10n.t('Trace'))}</h1>
  <p id="summary" class="note"></p>
</header>
<div id="status" role="status" aria-live="polite"></div>
<p id="keys" class="note">${h(keys)}</p>
<ol id="spans" class="spans" aria-labelledby="title" aria-describedby="keys"></ol>`;
}
