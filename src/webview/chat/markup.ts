/** An icon button of the composer that attaches context (the image one shows only for models that take images). */
function attachButton(kind: string, icon: string, label: string): string {
  return (
    `<button type="button" class="tool" id="attach-${kind}" data-action="attach" data-kind="${kind}" title="${label}" aria-label="${label}"${kind === 'image' ? ' hidden' : ''}>` +
    `<span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`
  );
}

/** The chat page's markup (no scripts): shared by the panel and the browser benchmark. */
export function chatBodyHtml(): string {
  return `<header>
  <label for="deployment"><span class="label-text">Deployment</span></label>
  <select id="deployment"></select>
</header>
<details class="settings">
  <summary>System prompt and parameters</summary>
  <div class="settings-grid">
    <label for="system-prompt">System prompt</label><textarea id="system-prompt" rows="2"></textarea>
    <label for="temperature">Temperature</label><input id="temperature" type="number" min="0" max="2" step="0.1" placeholder="service default">
    <label for="top-p">Top P</label><input id="top-p" type="number" min="0" max="1" step="0.05" placeholder="service default">
    <label for="max-tokens">Max tokens</label><input id="max-tokens" type="number" min="1" step="1" placeholder="no limit">
    <label for="route">Route</label><select id="route"><option value="v1">v1 (/openai/v1)</option><option value="deployment">Deployment (api-version)</option></select>
    <label for="api-version">api-version</label><input id="api-version" type="text" placeholder="connection default">
    <label for="api">API</label><select id="api">
      <option value="">Automatic (what the model takes)</option><option value="chat">Chat Completions</option><option value="responses">Responses</option>
    </select>
    <label for="reasoning-effort">Reasoning effort</label><select id="reasoning-effort">
      <option value="">model default</option><option>minimal</option><option>low</option><option>medium</option><option>high</option>
    </select>
    <label for="background">In the background</label><span><input id="background" type="checkbox"> replies run on the service (Responses API); Stop cancels them</span>
  </div>
</details>
<div class="log-wrap">
  <main id="messages" role="log" aria-live="polite" aria-label="Conversation"></main>
  <button type="button" id="jump-latest" hidden><span class="codicon codicon-arrow-down" aria-hidden="true"></span>Jump to latest</button>
</div>
<div id="announcer" class="visually-hidden" aria-live="polite"></div>
<div id="status" role="status"></div>
<div id="edit-banner" hidden>Editing your last message: Enter sends it again, Escape cancels.</div>
<footer>
  <div id="chips" role="list" aria-label="Attached to your next message" hidden></div>
  <label for="input" class="visually-hidden">Message</label>
  <textarea id="input" rows="3" placeholder="Message (Enter to send, Shift+Enter for a new line)"></textarea>
  <div class="composer-bar">
    ${attachButton('selection', 'list-selection', "Attach the editor's selection")}
    ${attachButton('file', 'file-add', 'Attach a file')}
    ${attachButton('image', 'file-media', 'Attach an image')}
    <span id="context" class="context-meter"></span>
    <span id="totals" aria-live="polite"></span>
    <span class="spacer"></span>
    <button type="button" id="send" title="Send (Enter)"><span class="codicon codicon-send" aria-hidden="true"></span>Send</button>
    <button type="button" id="stop" class="secondary" title="Stop the reply" hidden><span class="codicon codicon-debug-stop" aria-hidden="true"></span>Stop</button>
  </div>
</footer>`;
}
