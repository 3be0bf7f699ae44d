/** The delivery inspector's markup (no scripts, no delivery content: that is filled in as text). */
import * as l10n from '@vscode/l10n';
import { escapeHtml as h } from '../shared/escape';

export function inspectorBodyHtml(): string {
  const headerCount = h(l10n.t('Headers ({0})')).replace('{0}', '<span id="header-count">0</span>');
  return `<div id="notice" role="status" aria-live="polite" hidden></div>
<main id="content" aria-busy="false">
<p id="empty" class="empty">${h(l10n.t('Choose a delivery in the Webhook Events view.'))}</p>
<article id="delivery" hidden aria-labelledby="title">
  <header>
    <h1 id="title"></h1>
    <p class="summary"><span id="verdict" class="badge"></span> <span id="received"></span></p>
    <p id="reason"></p>
    <div class="actions" role="toolbar" aria-label="${h(l10n.t('Delivery actions'))}">
      <button type="button" data-action="replay" title="${h(l10n.t('Send it to the app again, signed now, with a new webhook-id'))}">
        <span class="codicon codicon-debug-restart" aria-hidden="true"></span>${h(l10n.t('Replay to app'))}</button>
      <button type="button" data-action="edit" class="secondary" title="${h(l10n.t('Change the body, then send it re-signed'))}">
        <span class="codicon codicon-edit" aria-hidden="true"></span>${h(l10n.t('Edit and replay'))}</button>
      <button type="button" data-action="curl" class="secondary" title="${h(l10n.t('A curl command signed now (the signature, never the secret)'))}">
        <span class="codicon codicon-terminal" aria-hidden="true"></span>${h(l10n.t('Copy as curl'))}</button>
      <button type="button" data-action="fixture" class="secondary" title="${h(l10n.t('Keep it as a JSON file in the workspace, to send again from the editor (no signature, no secret)'))}">
        <span class="codicon codicon-save-as" aria-hidden="true"></span>${h(l10n.t('Save as fixture'))}</button>
      <button type="button" data-action="payload" class="secondary"><span class="codicon codicon-json" aria-hidden="true"></span>${h(l10n.t('Open payload'))}</button>
      <button type="button" data-action="fetch" class="secondary" hidden><span class="codicon codicon-cloud-download" aria-hidden="true"></span>${h(l10n.t('Fetch response'))}</button>
      <button type="button" data-action="conversation" class="secondary" hidden title="${h(l10n.t('The chat conversation whose reply this response is'))}">
        <span class="codicon codicon-comment-discussion" aria-hidden="true"></span>${h(l10n.t('Open conversation'))}</button>
      <button type="button" data-action="trace" class="secondary" hidden title="${h(l10n.t("The trace of the background reply whose wait this delivery ended"))}">
        <span class="codicon codicon-list-tree" aria-hidden="true"></span>${h(l10n.t('Show trace'))}</button>
      <button type="button" data-action="subject" class="secondary" hidden><span class="codicon codicon-go-to-file" aria-hidden="true"></span><span id="subject-label"></span></button>
    </div>
    <p id="replay-note" class="note"></p>
  </header>
  <section id="call-section" aria-labelledby="call-h" hidden>
    <h2 id="call-h"><span class="codicon codicon-call-incoming" aria-hidden="true"></span>${h(l10n.t('Incoming call'))}</h2>
    <p id="call-id" class="mono"></p>
    <p id="call-parties" class="mono"></p>
    <div id="call-actions" class="actions" role="toolbar" aria-label="${h(l10n.t('Call actions'))}">
      <button type="button" data-action="call-accept"><span class="codicon codicon-call-incoming" aria-hidden="true"></span>${h(l10n.t('Accept…'))}</button>
      <button type="button" data-action="call-reject" class="secondary"><span class="codicon codicon-circle-slash" aria-hidden="true"></span>${h(l10n.t('Reject…'))}</button>
      <button type="button" data-action="call-transfer" class="secondary"><span class="codicon codicon-arrow-right" aria-hidden="true"></span>${h(l10n.t('Transfer…'))}</button>
      <button type="button" data-action="call-hangup" class="secondary"><span class="codicon codicon-debug-disconnect" aria-hidden="true"></span>${h(l10n.t('Hang up'))}</button>
    </div>
    <p id="call-note" class="note"></p>
    <div class="table-wrap" tabindex="0" role="region" aria-labelledby="sip-caption">
      <table id="sip-table">
        <caption id="sip-caption">${h(l10n.t("SIP headers, in the order the caller sent them (their values are the caller's)"))}</caption>
        <thead><tr><th scope="col">${h(l10n.t({ message: 'Name', comment: ["A SIP header's name"] }))}</th>
          <th scope="col">${h(l10n.t({ message: 'Value', comment: ["A SIP header's value"] }))}</th></tr></thead>
        <tbody id="sip-rows"></tbody>
      </table>
    </div>
  </section>
  <section id="doctor" aria-labelledby="doctor-h" hidden>
    <h2 id="doctor-h"><span class="codicon codicon-lightbulb" aria-hidden="true"></span>${h(l10n.t('Likely cause'))}</h2>
    <div id="diagnoses"></div>
  </section>
  <section id="answers-section" aria-labelledby="answers-h">
    <h2 id="answers-h">${h(l10n.t("The app's answer"))}</h2>
    <p id="no-answer" class="note"></p>
    <div id="answers" class="answers"></div>
  </section>
  <section id="trace-section" aria-labelledby="trace-h">
    <h2 id="trace-h">${h(l10n.t('Verdict trace'))}</h2>
    <dl id="trace" class="kv"></dl>
    <div class="table-wrap"><table id="tried" aria-label="${h(l10n.t('Signing secrets tried'))}">
      <thead><tr><th scope="col">${h(l10n.t('Endpoint secret'))}</th><th scope="col">${h(l10n.t('Expects'))}</th><th scope="col">${h(l10n.t('Result'))}</th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>
  <section aria-labelledby="request-h">
    <h2 id="request-h">${h(l10n.t('Request'))}</h2>
    <p id="request-line" class="mono"></p>
    <details id="headers-box" open><summary>${headerCount}</summary><dl id="headers" class="kv mono"></dl></details>
    <div class="body-head">
      <h3 id="body-h">${h(l10n.t('Body'))}</h3>
      <div role="group" aria-label="${h(l10n.t('Body view'))}" class="toggle">
        <button type="button" class="secondary" data-view="pretty" aria-pressed="true">${h(l10n.t({ message: 'Pretty', comment: ['Show the body as indented JSON'] }))}</button>
        <button type="button" class="secondary" data-view="raw" aria-pressed="false">${h(l10n.t({ message: 'Raw', comment: ['Show the body exactly as it arrived'] }))}</button>
      </div>
    </div>
    <p id="body-note" class="note"></p>
    <pre id="body" class="mono" tabindex="0" aria-labelledby="body-h"></pre>
    <div id="editor" hidden>
      <label for="edit-body">${h(l10n.t('Edited body: sent re-signed with a new webhook-id (Ctrl+Enter sends, Escape cancels)'))}</label>
      <textarea id="edit-body" class="mono" rows="12" spellcheck="false"></textarea>
      <div class="actions">
        <button type="button" data-action="send-edited"><span class="codicon codicon-send" aria-hidden="true"></span>${h(l10n.t('Send re-signed'))}</button>
        <button type="button" data-action="curl-edited" class="secondary"><span class="codicon codicon-terminal" aria-hidden="true"></span>${h(l10n.t('Copy as curl'))}</button>
        <button type="button" data-action="cancel-edit" class="secondary">${h(l10n.t('Cancel'))}</button>
      </div>
    </div>
  </section>
</article>
</main>`;
}
