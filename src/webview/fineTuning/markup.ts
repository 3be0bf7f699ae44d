/** A fine-tuning job's page markup (no scripts, no job content: that is filled in as text). */
import * as l10n from '@vscode/l10n';
import { escapeHtml as h } from '../shared/escape';

const button = (action: string, iconName: string, text: string, secondary = true) =>
  `<button type="button" data-action="${action}"${secondary ? ' class="secondary"' : ''} hidden><span class="codicon codicon-${iconName}" aria-hidden="true"></span>${h(text)}</button>`;

export function fineTuningBodyHtml(): string {
  const training = h(l10n.t({ message: 'Training', comment: ['The training loss, a column of the loss table'] }));
  const validation = h(l10n.t({ message: 'Validation', comment: ['The validation loss, a column of the loss table'] }));
  const step = h(l10n.t({ message: 'Step', comment: ['A training step, a column heading'] }));
  return `<main id="content" aria-busy="true">
<p id="loading" class="note">${h(l10n.t('Reading the job…'))}</p>
<article id="job" hidden aria-labelledby="title">
  <header>
    <h1 id="title"></h1>
    <p class="summary"><span id="status-badge" class="badge"></span> <span id="subtitle"></span></p>
    <div class="actions" role="toolbar" aria-label="${h(l10n.t('Job actions'))}">
      ${button('deploy', 'rocket', l10n.t('Deploy…'), false)}
      ${button('pause', 'debug-pause', l10n.t('Pause'))}
      ${button('resume', 'debug-continue', l10n.t('Resume'))}
      ${button('cancel', 'debug-stop', l10n.t('Cancel job'))}
      <button type="button" data-action="refresh" class="secondary"><span class="codicon codicon-refresh" aria-hidden="true"></span>${h(l10n.t('Refresh'))}</button>
    </div>
    <p id="updated" class="note"></p>
  </header>
  <div id="status" role="status" aria-live="polite"></div>
  <p id="job-error" class="error-text" hidden></p>
  <section aria-labelledby="loss-h">
    <h2 id="loss-h">${h(l10n.t('Loss per step'))}</h2>
    <figure id="chart"></figure>
    <p id="no-loss" class="note" hidden></p>
    <details id="loss-data"><summary>${h(l10n.t('The loss as a table'))}</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label="${h(l10n.t('Loss per step, as a table'))}">
        <table id="loss-table"><caption class="visually-hidden">${h(l10n.t('Training and validation loss per step'))}</caption>
          <thead><tr><th scope="col" class="num">${step}</th><th scope="col" class="num">${training}</th><th scope="col" class="num">${validation}</th></tr></thead>
          <tbody id="loss-rows"></tbody>
        </table>
      </div>
    </details>
  </section>
  <section aria-labelledby="details-h">
    <h2 id="details-h">${h(l10n.t('Details'))}</h2>
    <dl id="details" class="kv"></dl>
    <h3 id="hyper-h">${h(l10n.t('Hyperparameters'))}</h3>
    <dl id="hyperparameters" class="kv" aria-labelledby="hyper-h"></dl>
  </section>
  <section aria-labelledby="checkpoints-h">
    <h2 id="checkpoints-h">${h(l10n.t('Checkpoints'))}</h2>
    <p id="no-checkpoints" class="note" hidden></p>
    <div class="table-wrap" tabindex="0" role="region" aria-labelledby="checkpoints-h">
      <table id="checkpoints-table"><caption class="visually-hidden">${h(l10n.t('Checkpoints, newest first'))}</caption>
        <thead><tr><th scope="col" class="num">${step}</th><th scope="col">${h(l10n.t({ message: 'Model', comment: ["A checkpoint's model name, a column heading"] }))}</th>
          <th scope="col" class="num">${h(l10n.t('Training loss'))}</th><th scope="col" class="num">${h(l10n.t('Validation loss'))}</th></tr></thead>
        <tbody id="checkpoint-rows"></tbody>
      </table>
    </div>
  </section>
  <section aria-labelledby="events-h">
    <h2 id="events-h">${h(l10n.t('Events'))}</h2>
    <p id="events-note" class="note"></p>
    <ol id="events" class="events" tabindex="0" aria-labelledby="events-h"></ol>
  </section>
</article>
</main>`;
}
