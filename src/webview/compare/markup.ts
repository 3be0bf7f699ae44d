/** The compare page's fixed markup (no data in it: everything shown arrives as messages and is put in as text). */
export function compareBodyHtml(): string {
  return `
<header>
  <h1 id="title">Compare deployments</h1>
  <span id="spread" class="muted"></span>
</header>
<details class="settings" id="settings">
  <summary>System prompt and parameters</summary>
  <div class="settings-grid">
    <label for="system">System prompt</label><textarea id="system" rows="2"></textarea>
    <label for="temperature">Temperature</label><input id="temperature" type="number" min="0" max="2" step="0.1" placeholder="model default">
    <label for="maxTokens">Max tokens</label><input id="maxTokens" type="number" min="1" step="1" placeholder="model default">
  </div>
</details>
<form id="composer" class="composer">
  <label for="prompt" class="visually-hidden">Prompt sent to every deployment</label>
  <textarea id="prompt" rows="3" placeholder="One prompt, sent to every deployment at the same moment (Ctrl+Enter sends)"></textarea>
  <div id="chips" class="chips" aria-label="Attachments"></div>
  <div class="actions">
    <button type="submit" id="send"><span class="codicon codicon-send" aria-hidden="true"></span>Send</button>
    <button type="button" id="stop" class="secondary" disabled><span class="codicon codicon-debug-stop" aria-hidden="true"></span>Stop</button>
    <span class="again">
      <button type="button" id="again" class="secondary"><span class="codicon codicon-refresh" aria-hidden="true"></span>Run again ×</button>
      <label for="runs" class="visually-hidden">Number of runs</label><input id="runs" type="number" min="1" max="20" value="3">
    </span>
    <button type="button" id="export" class="secondary" disabled><span class="codicon codicon-markdown" aria-hidden="true"></span>Export as Markdown</button>
    <button type="button" id="attachFile" class="icon-button" title="Attach a file" aria-label="Attach a file"><span class="codicon codicon-file" aria-hidden="true"></span></button>
    <button type="button" id="attachImage" class="icon-button" title="Attach an image" aria-label="Attach an image"><span class="codicon codicon-file-media" aria-hidden="true"></span></button>
    <button type="button" id="attachSelection" class="icon-button" title="Attach the editor's selection" aria-label="Attach the editor's selection">
      <span class="codicon codicon-selection" aria-hidden="true"></span></button>
  </div>
</form>
<div id="status" class="muted" role="status" aria-live="polite"></div>
<main id="columns" class="columns"></main>
`;
}
