/** A fine-tuning job's page markup (no scripts, no job content: that is filled in as text). */
const button = (action: string, iconName: string, text: string, secondary = true) =>
  `<button type="button" data-action="${action}"${secondary ? ' class="secondary"' : ''} hidden><span class="codicon codicon-${iconName}" aria-hidden="true"></span>${text}</button>`;

export function fineTuningBodyHtml(): string {
  return `<main id="content" aria-busy="true">
<p id="loading" class="note">Reading the job…</p>
<article id="job" hidden aria-labelledby="title">
  <header>
    <h1 id="title"></h1>
    <p class="summary"><span id="status-badge" class="badge"></span> <span id="subtitle"></span></p>
    <div class="actions" role="toolbar" aria-label="Job actions">
      ${button('deploy', 'rocket', 'Deploy…', false)}
      ${button('pause', 'debug-pause', 'Pause')}
      ${button('resume', 'debug-continue', 'Resume')}
      ${button('cancel', 'debug-stop', 'Cancel job')}
      <button type="button" data-action="refresh" class="secondary"><span class="codicon codicon-refresh" aria-hidden="true"></span>Refresh</button>
    </div>
    <p id="updated" class="note"></p>
  </header>
  <div id="status" role="status" aria-live="polite"></div>
  <p id="job-error" class="error-text" hidden></p>
  <section aria-labelledby="loss-h">
    <h2 id="loss-h">Loss per step</h2>
    <figure id="chart"></figure>
    <p id="no-loss" class="note" hidden></p>
    <details id="loss-data"><summary>The loss as a table</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Loss per step, as a table">
        <table id="loss-table"><caption class="visually-hidden">Training and validation loss per step</caption>
          <thead><tr><th scope="col" class="num">Step</th><th scope="col" class="num">Training</th><th scope="col" class="num">Validation</th></tr></thead>
          <tbody id="loss-rows"></tbody>
        </table>
      </div>
    </details>
  </section>
  <section aria-labelledby="details-h">
    <h2 id="details-h">Details</h2>
    <dl id="details" class="kv"></dl>
    <h3 id="hyper-h">Hyperparameters</h3>
    <dl id="hyperparameters" class="kv" aria-labelledby="hyper-h"></dl>
  </section>
  <section aria-labelledby="checkpoints-h">
    <h2 id="checkpoints-h">Checkpoints</h2>
    <p id="no-checkpoints" class="note" hidden></p>
    <div class="table-wrap" tabindex="0" role="region" aria-labelledby="checkpoints-h">
      <table id="checkpoints-table"><caption class="visually-hidden">Checkpoints, newest first</caption>
        <thead><tr><th scope="col" class="num">Step</th><th scope="col">Model</th><th scope="col" class="num">Training loss</th><th scope="col" class="num">Validation loss</th></tr></thead>
        <tbody id="checkpoint-rows"></tbody>
      </table>
    </div>
  </section>
  <section aria-labelledby="events-h">
    <h2 id="events-h">Events</h2>
    <p id="events-note" class="note"></p>
    <ol id="events" class="events" tabindex="0" aria-labelledby="events-h"></ol>
  </section>
</article>
</main>`;
}
