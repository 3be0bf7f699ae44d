/** The usage page's markup (no scripts): the filters, the table, the chart and the headroom. */
import * as l10n from '@vscode/l10n';
import { escapeHtml as h } from '../shared/escape';
import { SOURCES, sourceLabel } from './protocol';

export function usageBodyHtml(): string {
  const sources = SOURCES.map((s) => `<option value="${s}">${h(sourceLabel(s))}</option>`).join('');
  const percentiles = h(l10n.t('p50 / p95'));
  // Two sentences, each one string (the export reads only a single literal).
  const recorded = [
    l10n.t("Every request you send to a deployment is recorded here: the chat panel, VS Code's chat, Compare Deployments, and batches when you open their results."),
    l10n.t('Open a chat from a deployment in the Azure OpenAI view, send a message, and its tokens, times and estimated cost appear here.'),
  ].join(' ');
  const headroomNote = [
    l10n.t("What the service's last answer said was left of each deployment's limits."),
    l10n.t("A limit shows where the service gave it (its rate-limit headers, or the deployment's limits in Resource Manager); otherwise only what was left."),
  ].join(' ');
  return `<header class="toolbar">
  <h1>${h(l10n.t('Azure OpenAI usage'))}</h1>
  <div class="filters" role="group" aria-label="${h(l10n.t('Filters'))}">
    <label>${h(l10n.t('Period'))} <select id="window">
      <option value="today">${h(l10n.t('Today'))}</option><option value="week">${h(l10n.t('Last 7 days'))}</option><option value="month" selected>${h(l10n.t('Last 30 days'))}</option>
    </select></label>
    <label>${h(l10n.t('Connection'))} <select id="connection"><option value="">${h(l10n.t('All connections'))}</option></select></label>
    <label>${h(l10n.t('Source'))} <select id="source"><option value="">${h(l10n.t('All sources'))}</option>${sources}</select></label>
  </div>
  <div class="actions">
    <button type="button" id="export" class="secondary"><span class="codicon codicon-desktop-download" aria-hidden="true"></span>${h(l10n.t('Export as CSV'))}</button>
    <button type="button" id="prices" class="secondary"><span class="codicon codicon-settings-gear" aria-hidden="true"></span>${h(l10n.t('Prices'))}</button>
  </div>
</header>
<div id="status" role="status" aria-live="polite"></div>
<section id="empty" hidden>
  <h2>${h(l10n.t('No usage recorded yet'))}</h2>
  <p>${h(recorded)}</p>
  <p>${h(l10n.t('Only names, counts, times and outcomes are kept, on this computer: never a prompt, a reply or a key.'))}</p>
</section>
<section id="content" hidden>
  <h2 id="usage-heading" class="table-heading"></h2>
  <div class="table-wrap" id="table-wrap" tabindex="0" role="region" aria-labelledby="usage-heading">
    <table id="usage-table">
      <caption id="usage-caption" class="visually-hidden"></caption>
      <thead><tr>
        <th scope="col">${h(l10n.t('Deployment'))}</th>
        <th scope="col" class="num">${h(l10n.t('Requests'))}</th>
        <th scope="col" class="num">${h(l10n.t('Tokens in'))} <span class="sub">${h(l10n.t('(cached)'))}</span></th>
        <th scope="col" class="num">${h(l10n.t('Tokens out'))} <span class="sub">${h(l10n.t('(reasoning)'))}</span></th>
        <th scope="col" class="num">${h(l10n.t('First token'))} <span class="sub">${percentiles}</span></th>
        <th scope="col" class="num">${h(l10n.t('Total time'))} <span class="sub">${percentiles}</span></th>
        <th scope="col" class="num">${h(l10n.t({ message: '429s', comment: ['Column: how many requests the service refused with HTTP 429 (rate limited)'] }))}</th>
        <th scope="col" class="num">${h(l10n.t('Cost'))} <span class="sub">${h(l10n.t('(estimate)'))}</span></th>
      </tr></thead>
      <tbody id="usage-rows"></tbody>
    </table>
  </div>
  <p class="note" id="cost-note"></p>
  <section aria-labelledby="chart-title">
    <div class="chart-head">
      <h2 id="chart-title">${h(l10n.t('Per day, last 30 days'))}</h2>
      <label>${h(l10n.t('Show'))} <select id="metric"><option value="tokens">${h(l10n.t('Tokens'))}</option><option value="cost">${h(l10n.t('Estimated cost'))}</option></select></label>
    </div>
    <figure id="chart"></figure>
    <details id="chart-data"><summary>${h(l10n.t('The chart as a table'))}</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label="${h(l10n.t('Per day, as a table'))}"><table id="daily-table"></table></div></details>
  </section>
  <section aria-labelledby="headroom-title">
    <h2 id="headroom-title">${h(l10n.t('Rate-limit headroom'))}</h2>
    <p class="note" id="headroom-note">${h(headroomNote)}</p>
    <ul id="headroom-list" class="headroom"></ul>
  </section>
</section>`;
}
