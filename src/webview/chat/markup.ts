/** The chat page's markup (no scripts): shared by the panel and the browser benchmark. */
import * as l10n from '@vscode/l10n';
import { escapeHtml as h } from '../shared/escape';

/** An icon button of the composer that attaches context (the image one shows only for models that take images). */
function attachButton(kind: string, icon: string, label: string): string {
  return (
    `<button type="button" class="tool" id="attach-${kind}" data-action="attach" data-kind="${kind}" title="${h(label)}" aria-label="${h(label)}"${kind === 'image' ? ' hidden' : ''}>` +
    `<span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`
  );
}

/** A labelled field of the settings grid. */
const label = (id: string, text: string) => `<label for="${id}">${h(text)}</label>`;
const option = (value: string, text: string) => `<option value="${value}">${h(text)}</option>`;

export function chatBodyHtml(): string {
  const serviceDefault = h(l10n.t('service default'));
  return `<header>
  <label for="deployment"><span class="label-text">${h(l10n.t('Deployment'))}</span></label>
  <select id="deployment"></select>
</header>
<details class="settings">
  <summary>${h(l10n.t('System prompt and parameters'))}</summary>
  <div class="settings-grid">
    ${label('system-prompt', l10n.t('System prompt'))}<textarea id="system-prompt" rows="2"></textarea>
    ${label('temperature', l10n.t('Temperature'))}<input id="temperature" type="number" min="0" max="2" step="0.1" placeholder="${serviceDefault}">
    ${label('top-p', l10n.t('Top P'))}<input id="top-p" type="number" min="0" max="1" step="0.05" placeholder="${serviceDefault}">
    ${label('max-tokens', l10n.t('Max tokens'))}<input id="max-tokens" type="number" min="1" step="1" placeholder="${h(l10n.t('no limit'))}">
    ${label('route', l10n.t('Route'))}<select id="route">${option('v1', 'v1 (/openai/v1)')}${option('deployment', l10n.t('Deployment (api-version)'))}</select>
    <label for="api-version">api-version</label><input id="api-version" type="text" placeholder="${h(l10n.t('connection default'))}">
    ${label('api', l10n.t('API'))}<select id="api">
      ${option('', l10n.t('Automatic (what the model takes)'))}${option('chat', l10n.t('Chat Completions'))}${option('responses', l10n.t('Responses'))}
    </select>
    ${label('reasoning-effort', l10n.t('Reasoning effort'))}<select id="reasoning-effort">
      ${option('', l10n.t('model default'))}${option('minimal', l10n.t('minimal'))}${option('low', l10n.t('low'))}${option('medium', l10n.t('medium'))}${option('high', l10n.t('high'))}
    </select>
    ${label('cache-key', l10n.t('Prompt cache key'))}<input id="cache-key" type="text" maxlength="1024" placeholder="${h(l10n.t('none (v1 route only)'))}">
    ${label('cache-retention', l10n.t('Prompt cache retention'))}<select id="cache-retention">
      ${option('', l10n.t('service default'))}${option('in_memory', l10n.t('in memory'))}${option('24h', l10n.t('24 hours'))}
    </select>
    ${label('background', l10n.t('In the background'))}<span><input id="background" type="checkbox"> ${h(l10n.t('replies run on the service (Responses API); Stop cancels them'))}</span>
  </div>
</details>
<div class="log-wrap">
  <main id="messages" role="log" aria-live="polite" aria-label="${h(l10n.t('Conversation'))}"></main>
  <button type="button" id="jump-latest" hidden><span class="codicon codicon-arrow-down" aria-hidden="true"></span>${h(l10n.t('Jump to latest'))}</button>
</div>
<div id="announcer" class="visually-hidden" aria-live="polite"></div>
<div id="status" role="status"></div>
<div id="edit-banner" hidden>${h(l10n.t('Editing your last message: Enter sends it again, Escape cancels.'))}</div>
<footer>
  <div id="chips" role="list" aria-label="${h(l10n.t('Attached to your next message'))}" hidden></div>
  <label for="input" class="visually-hidden">${h(l10n.t('Message'))}</label>
  <textarea id="input" rows="3" placeholder="${h(l10n.t('Message (Enter to send, Shift+Enter for a new line)'))}"></textarea>
  <div class="composer-bar">
    ${attachButton('selection', 'list-selection', l10n.t("Attach the editor's selection"))}
    ${attachButton('file', 'file-add', l10n.t('Attach a file'))}
    ${attachButton('image', 'file-media', l10n.t('Attach an image'))}
    <span id="context" class="context-meter"></span>
    <span id="totals" aria-live="polite"></span>
    <span class="spacer"></span>
    <button type="button" id="send" title="${h(l10n.t('Send (Enter)'))}"><span class="codicon codicon-send" aria-hidden="true"></span>${h(l10n.t('Send'))}</button>
    <button type="button" id="stop" class="secondary" title="${h(l10n.t('Stop the reply'))}" hidden><span class="codicon codicon-debug-stop" aria-hidden="true"></span>${h(l10n.t('Stop'))}</button>
  </div>
</footer>`;
}
