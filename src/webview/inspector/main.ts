/**
 * The delivery inspector's page. Everything a delivery carries comes from whoever sent it: it is
 * put on the page as text (textContent), never as HTML. It talks to the extension only through
 * the typed protocol and validates everything it receives.
 */
import '../shared/useBundle';
import * as l10n from '@vscode/l10n';
import { parseInspectorHostMessage, type CallAction, type CallView, type DeliveryView, type InspectorHostMessage, type InspectorViewMessage } from '../../webhooks/inspect/inspectorProtocol';
import { $, connect, el, fillKv, icon } from '../shared/page';
import { answerCard, pretty, renderTrace, time, VERDICT_ICON, verdictLabel } from './render';

const vscode = connect<InspectorViewMessage, InspectorHostMessage>(parseInspectorHostMessage, (msg) => handle(msg));
const post = (msg: InspectorViewMessage) => vscode.post(msg);

/** A setting's id is data: it stays as it is in every language. */
const FORWARD_SETTING = 'aoaiWorkbench.webhooks.forwardTo';
/** Buttons that only name the delivery to the extension: their data-action, the message they post. */
const ASKS = {
  curl: 'copyCurl',
  fixture: 'saveFixture',
  payload: 'openPayload',
  fetch: 'fetchResponse',
  conversation: 'openConversation',
  trace: 'showTrace',
  subject: 'openSubject',
} as const;
let current: DeliveryView | undefined;
let bodyView: 'pretty' | 'raw' = 'pretty';
let busy = false;
/** How many answers the shown delivery had when a replay was sent (until its answer arrives). */
let replaySent: { eventId: string; answers: number } | undefined;

function renderBody(): void {
  if (!current) return;
  $('body').textContent = bodyView === 'pretty' ? pretty(current.body) : current.body;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-view]')) b.setAttribute('aria-pressed', String(b.dataset.view === bodyView));
}

function render(d: DeliveryView): void {
  const changed = current?.id !== d.id;
  current = d;
  $('empty').hidden = true;
  $('delivery').hidden = false;
  $('title').textContent = d.title;
  document.title = l10n.t('Delivery: {0}', d.title);
  const verdict = $('verdict');
  verdict.replaceChildren(icon(VERDICT_ICON[d.verdict] ?? 'circle'), el('span', verdictLabel(d.verdict)));
  verdict.className = `badge ${d.verdict}`;
  $('received').textContent = l10n.t('received {0} · the listener answered {1}', time(d.receivedAt), d.status);
  $('reason').textContent = d.reason ?? '';
  $('reason').hidden = !d.reason;

  // Actions: only a verified, whole body can be re-signed.
  for (const a of ['replay', 'edit', 'curl', 'fixture']) (document.querySelector(`[data-action="${a}"]`) as HTMLButtonElement).disabled = !d.replayable || busy;
  for (const a of ['fetch', 'conversation', 'trace']) (document.querySelector(`[data-action="${a}"]`) as HTMLButtonElement).hidden = !d.responseId;
  const subject = document.querySelector<HTMLButtonElement>('[data-action="subject"]')!;
  subject.hidden = !d.subject;
  $('subject-label').textContent = d.subject?.kind === 'batch' ? l10n.t('Open batch results') : l10n.t('Open fine-tuning job');
  renderCall(d);
  $('replay-note').textContent = !d.replayable
    ? (d.notReplayable ?? '')
    : d.appUrl
      ? l10n.t('Replays go to {0}.', d.appUrl)
      : l10n.t('Set "{0}" to replay to your app.', FORWARD_SETTING);

  // The doctor.
  $('doctor').hidden = d.diagnoses.length === 0;
  $('diagnoses').replaceChildren(
    ...d.diagnoses.map((g) => {
      const box = el('div', undefined, 'diagnosis');
      box.append(el('p', g.title, 'diagnosis-title'), el('p', g.advice));
      const ul = el('ul', undefined, 'evidence');
      ul.append(...g.evidence.map((e) => el('li', e)));
      box.append(ul);
      return box;
    }),
  );

  // The app's answers, oldest first: a replay's answer beside the one before.
  let replayNo = 0;
  $('answers').replaceChildren(...d.answers.map((a) => answerCard(a, a.kind === 'replay' ? ++replayNo : 0)));
  $('no-answer').textContent = d.answers.length
    ? ''
    : d.verdict === 'verified'
      ? d.appUrl
        ? l10n.t('Not forwarded (it arrived before forwarding was set).')
        : l10n.t('Not forwarded: set "{0}" to pass deliveries to your app.', FORWARD_SETTING)
      : l10n.t('Only verified deliveries are forwarded.');
  $('no-answer').hidden = d.answers.length > 0;

  // The verdict's trace.
  $('trace-section').hidden = !d.trace;
  if (d.trace) renderTrace(d.trace, $('trace'), $('tried').querySelector('tbody')!);

  // The request.
  $('request-line').textContent = `${d.method} ${d.path}`;
  $('header-count').textContent = String(d.headers.length);
  fillKv($('headers'), d.headers.map((h) => [h.name, h.value]));
  $('body-note').textContent = d.bodyNote ?? '';
  $('body-note').hidden = !d.bodyNote;
  renderBody();
  if (changed) {
    closeEditor();
    // A notice was about the delivery shown before (a copied curl, a replay's answer); a replay under way keeps its own.
    if (!busy) $('notice').hidden = true;
  }
  if (replaySent?.eventId === d.id && d.answers.length > replaySent.answers) {
    replaySent = undefined;
    announceNewAnswer(d);
  }
}

/** A From or To as read per RFC 3261: the address, the name the caller gave after it; a header that does not read, whole. */
function partyText(p: CallView['from']): string {
  if (!p) return l10n.t('unknown');
  if (!p.parsed) return l10n.t({ message: '{0} (unparsed)', args: [p.raw], comment: 'a SIP From or To header shown whole: it does not read as an address' });
  if (!p.name) return p.address;
  return l10n.t({
    message: '{0} (name given: "{1}")',
    args: [p.address, p.name],
    comment: 'a SIP address, then the display name the caller wrote beside it (nobody checks it)',
  });
}

/** A call event: its SIP headers as a table (the caller's text, as text), and what can be done with the call. */
function renderCall(d: DeliveryView): void {
  const call = d.call;
  $('call-section').hidden = !call;
  if (!call) return;
  $('call-id').textContent = l10n.t('Call {0}', call.callId);
  // The address as the address, the name as what the caller gave; each as text (textContent).
  $('call-parties').textContent = l10n.t('From {0} to {1}', partyText(call.from), partyText(call.to));
  $('call-actions').hidden = !call.actionable;
  $('call-note').textContent = call.actionable
    ? l10n.t('Each action says so when the call has moved on (answered elsewhere, ended, or rung out).')
    : l10n.t('Not verified: nothing here acts on this call (anyone can send a forged one).');
  const rows = call.headers.map((h) => {
    const tr = el('tr');
    const name = el('th', h.name, 'mono');
    name.scope = 'row';
    tr.append(name, el('td', h.value, 'mono'));
    return tr;
  });
  if (!rows.length) {
    const tr = el('tr');
    tr.append(Object.assign(el('td', l10n.t('The delivery carried no SIP headers.')), { colSpan: 2 }));
    rows.push(tr);
  }
  $('sip-rows').replaceChildren(...rows);
}

/** A replay's answer arrived: the editor closes, and the new answer is brought into view, focused and announced. */
function announceNewAnswer(d: DeliveryView): void {
  closeEditor();
  const a = d.answers[d.answers.length - 1];
  const card = $('answers').lastElementChild as HTMLElement | null;
  const status = a.status ?? l10n.t('nothing');
  notice(a.ok ? 'info' : 'error', a.error ? l10n.t('The app answered {0} ({1}) to the replay.', status, a.error) : l10n.t('The app answered {0} to the replay.', status));
  if (card) {
    card.tabIndex = -1;
    card.scrollIntoView({ block: 'nearest' });
    card.focus();
  }
}

function sendReplay(body?: string): void {
  if (!current) return;
  replaySent = { eventId: current.id, answers: current.answers.length };
  post(body === undefined ? { type: 'replay', eventId: current.id } : { type: 'replay', eventId: current.id, body });
}

function showEmpty(text: string): void {
  current = undefined;
  $('delivery').hidden = true;
  $('empty').hidden = false;
  $('empty').textContent = text;
  document.title = l10n.t('Delivery');
}

function notice(level: 'info' | 'error', text: string): void {
  const n = $('notice');
  n.hidden = false;
  n.className = level;
  n.replaceChildren(icon(level === 'error' ? 'error' : 'info'), el('span', text));
  n.setAttribute('role', level === 'error' ? 'alert' : 'status');
}

function setBusy(value: boolean, text?: string): void {
  busy = value;
  $('content').setAttribute('aria-busy', String(value));
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-action="replay"], [data-action="send-edited"]')) b.disabled = value || !current?.replayable;
  if (value && text) notice('info', text);
}

function openEditor(): void {
  if (!current?.replayable) return;
  $<HTMLTextAreaElement>('edit-body').value = pretty(current.body);
  $('editor').hidden = false;
  $('body').hidden = true;
  $<HTMLTextAreaElement>('edit-body').focus();
}

function closeEditor(): void {
  $('editor').hidden = true;
  $('body').hidden = false;
}

function handle(msg: InspectorHostMessage): void {
  switch (msg.type) {
    case 'show':
      render(msg.delivery);
      // A window reload brings the panel back on this delivery (the extension's serializer reads it).
      vscode.setState({ eventId: msg.delivery.id });
      break;
    case 'empty':
      showEmpty(msg.text);
      break;
    case 'busy':
      setBusy(msg.busy, msg.text);
      if (!msg.busy) $('notice').hidden = true;
      break;
    case 'notice':
      if (msg.level === 'error') replaySent = undefined;
      notice(msg.level, msg.text);
      break;
  }
}

document.addEventListener('click', (e) => {
  const target = e.target as HTMLElement;
  const view = target.closest<HTMLElement>('[data-view]')?.dataset.view;
  if (view === 'pretty' || view === 'raw') {
    bodyView = view;
    renderBody();
    return;
  }
  const action = target.closest<HTMLElement>('[data-action]')?.dataset.action;
  if (!action || !current) return;
  const eventId = current.id;
  const edited = () => $<HTMLTextAreaElement>('edit-body').value;
  if (Object.hasOwn(ASKS, action)) return post({ type: ASKS[action as keyof typeof ASKS], eventId });
  if (action.startsWith('call-')) return post({ type: 'callAction', eventId, action: action.slice('call-'.length) as CallAction });
  switch (action) {
    case 'replay':
      return sendReplay();
    case 'edit':
      return openEditor();
    case 'send-edited':
      return sendReplay(edited());
    case 'curl-edited':
      return post({ type: 'copyCurl', eventId, body: edited() });
    case 'cancel-edit':
      closeEditor();
      (document.querySelector('[data-action="edit"]') as HTMLButtonElement).focus();
  }
});

$('edit-body').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && current) {
    e.preventDefault();
    sendReplay($<HTMLTextAreaElement>('edit-body').value);
  } else if (e.key === 'Escape') {
    closeEditor();
    (document.querySelector('[data-action="edit"]') as HTMLButtonElement).focus();
  }
});

post({ type: 'ready' });
