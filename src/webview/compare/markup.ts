/** The compare page's fixed markup (no data in it: everything shown arrives as messages and is put in as text). */
import * as l10n from '@vscode/l10n';
import { escapeHtml as h } from '../shared/escape';

/** An icon-only button: its label is its tooltip and what a screen reader says. */
function iconButton(id: string, icon: string, label: string): string {
  return `<button type="button" id="${id}" class="icon-button" title="${h(label)}" aria-label="${h(label)}"><span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`;
}

export function compareBodyHtml(): string {
  const modelDefault = h(l10n.t('model default'));
  return `
<header>
  <h1 id="title">${h(l10n.t('Compare deployments'))}</h1>
</header>
<details class="settings" id="settings">
  <summary>${h(l10n.t('System prompt and parameters'))}</summary>
  <div class="settings-grid">
    <label for="system">${h(l10n.t('System prompt'))}</label><textarea id="system" rows="2"></textarea>
    <label for="temperature">${h(l10n.t('Temperature'))}</label><input id="temperature" type="number" min="0" max="2" step="0.1" placeholder="${modelDefault}">
    <label for="maxTokens">${h(l10n.t('Max tokens'))}</label><input id="maxTokens" type="number" min="1" step="1" placeholder="${modelDefault}">
  </div>
</details>
<form id="composer" class="composer">
  <label for="prompt" class="visually-hidden">${h(l10n.t('Prompt sent to every deployment'))}</label>
  <textarea id="prompt" rows="3" placeholder="${h(l10n.t('One prompt, sent to every deployment at the same moment (Ctrl+Enter sends)'))}"></textarea>
  <div id="chips" class="chips" aria-label="${h(l10n.t('Attachments'))}"></div>
  <div class="actions">
    <button type="submit" id="send"><span class="codicon codicon-send" aria-hidden="true"></span>${h(l10n.t('Send'))}</button>
    <button type="button" id="stop" class="secondary" disabled><span class="codicon codicon-debug-stop" aria-hidden="true"></span>${h(l10n.t('Stop'))}</button>
    <span class="again">
      <button type="button" id="again" class="secondary"><span class="codicon codicon-refresh" aria-hidden="true"></span>${h(l10n.t('Run again ×'))}</button>
      <label for="runs" class="visually-hidden">${h(l10n.t('Number of runs'))}</label><input id="runs" type="number" min="1" max="20" value="3">
    </span>
    <button type="button" id="export" class="secondary" disabled><span class="codicon codicon-markdown" aria-hidden="true"></span>${h(l10n.t('Export as Markdown'))}</button>
    ${iconButton('attachFile', 'file', l10n.t('Attach a file'))}
    ${iconButton('attachImage', 'file-media', l10n.t('Attach an image'))}
    ${iconButton('attachSelection', 'selection', l10n.t("Attach the editor's selection"))}
  </div>
</form>
<div id="status" class="muted" role="status" aria-live="polite"></div>
<main id="columns" class="columns"></main>
`;
}
