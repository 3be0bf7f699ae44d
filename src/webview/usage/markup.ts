/** The usage page's markup (no scripts): the filters, the table, the chart and the headroom. */
import { SOURCES, SOURCE_LABELS } from './protocol';

export function usageBodyHtml(): string {
  const sources = SOURCES.map((s) => `<option value="${s}">${SOURCE_LABELS[s]}</option>`).join('');
  return `<header class="toolbar">
  <h1>Azure OpenAI usage</h1>
  <div class="filters" role="group" aria-label="Filters">
    <label>Period <select id="window">
      <option value="today">Today</option><option value="week">Last 7 days</option><option value="month" selected>Last 30 days</option>
    </select></label>
    <label>Connection <select id="connection"><option value="">All connections</option></select></label>
    <label>Source <select id="source"><option value="">All sources</option>${sources}</select></label>
  </div>
  <div class="actions">
    <button type="button" id="export" class="secondary"><span class="codicon codicon-desktop-download" aria-hidden="true"></span>Export as CSV</button>
    <button type="button" id="prices" class="secondary"><span class="codicon codicon-settings-gear" aria-hidden="true"></span>Prices</button>
  </div>
</header>
<div id="status" role="status" aria-live="polite"></div>
<section id="empty" hidden>
  <h2>No usage recorded yet</h2>
  <p>Every request you send to a deployment is recorded here: chats in the Azure OpenAI chat panel,
  requests from VS Code's chat to an Azure OpenAI model, Compare Deployments, and a batch's requests when
  you open its results. Open a chat from a deployment in the Azure OpenAI view, send a message, and its
  tokens, times and estimated cost appear here.</p>
  <p>Only names, counts, times and outcomes are kept, on this computer: never a prompt, a reply or a key.</p>
</section>
<section id="content" hidden>
  <h2 id="usage-heading" class="table-heading"></h2>
  <div class="table-wrap" id="table-wrap" tabindex="0" role="region" aria-labelledby="usage-heading">
    <table id="usage-table">
      <caption id="usage-caption" class="visually-hidden"></caption>
      <thead><tr>
        <th scope="col">Deployment</th>
        <th scope="col" class="num">Requests</th>
        <th scope="col" class="num">Tokens in <span class="sub">(cached)</span></th>
        <th scope="col" class="num">Tokens out <span class="sub">(reasoning)</span></th>
        <th scope="col" class="num">First token <span class="sub">p50 / p95</span></th>
        <th scope="col" class="num">Total time <span class="sub">p50 / p95</span></th>
        <th scope="col" class="num">429s</th>
        <th scope="col" class="num">Cost <span class="sub">(estimate)</span></th>
      </tr></thead>
      <tbody id="usage-rows"></tbody>
    </table>
  </div>
  <p class="note" id="cost-note"></p>
  <section aria-labelledby="chart-title">
    <div class="chart-head">
      <h2 id="chart-title">Per day, last 30 days</h2>
      <label>Show <select id="metric"><option value="tokens">Tokens</option><option value="cost">Estimated cost</option></select></label>
    </div>
    <figure id="chart"></figure>
    <details id="chart-data"><summary>The chart as a table</summary><div class="table-wrap" tabindex="0" role="region" aria-label="Per day, as a table"><table id="daily-table"></table></div></details>
  </section>
  <section aria-labelledby="headroom-title">
    <h2 id="headroom-title">Rate-limit headroom</h2>
    <p class="note" id="headroom-note">What the service's last answer said was left of each deployment's limits. A limit
    shows where the service gave it (its rate-limit headers, or the deployment's limits in Resource Manager); otherwise
    only what was left.</p>
    <ul id="headroom-list" class="headroom"></ul>
  </section>
</section>`;
}
