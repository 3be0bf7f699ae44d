/**
 * The chat panel's page. It talks to the extension only through the typed protocol, validates
 * everything it receives, and never sees a key or token.
 */
import * as l10n from '@vscode/l10n';
import { totals } from '../../chat/conversation';
import { type ChatTurn, type ConversationView, type DeploymentOption } from '../../chat/model';
import { parseHostMessage, type AttachmentChip, type HostMessage, type ViewMessage } from './protocol';
import { createRenderer } from './markdown';
import { PARAM_FIELDS, readParams, renderDeployments, renderSettings } from './settingsForm';
import { $, connect } from '../shared/page';
import { chipElements } from './chipsView';
import { Editing } from './editing';
import { contextUse, describeUse } from './contextMeter';
import { FollowScroll } from './follow';
import { appendReasoning } from './reasoningView';
import { StreamView } from './streamView';
import { backgroundText, ReplyProgress } from './replyProgress';
import { emptyState, turnElement } from './turnView';

const renderer = createRenderer();
const vscode = connect<ViewMessage, HostMessage>(parseHostMessage, (msg) => handle(msg));
const post = (msg: ViewMessage) => vscode.post(msg);

const log = $<HTMLDivElement>('messages');
const input = $<HTMLTextAreaElement>('input');
const sendButton = $<HTMLButtonElement>('send');
const stopButton = $<HTMLButtonElement>('stop');
const deploymentSelect = $<HTMLSelectElement>('deployment');
const totalsEl = $<HTMLSpanElement>('totals');
const statusEl = $<HTMLDivElement>('status');
const announcer = $<HTMLDivElement>('announcer');
const follow = new FollowScroll(log, $<HTMLButtonElement>('jump-latest'), (text) => (announcer.textContent = text));

let conversation: ConversationView | undefined;
let deployments: DeploymentOption[] = [];
let busy = false;
const editing = new Editing(log, $<HTMLDivElement>('edit-banner'));
const streams = new Map<string, StreamView>();
const progress = new Map<string, ReplyProgress>();
const chipsEl = $<HTMLDivElement>('chips');
const contextEl = $<HTMLSpanElement>('context');
let chips: AttachmentChip[] = [];
let contextLevel = 'ok';

function updateContext(): void {
  if (!conversation) return;
  const attached = chips.reduce((n, c) => n + (c.tokens ?? 0), 0);
  const { text, level, detail } = describeUse(contextUse(conversation, deployments, input.value, attached));
  contextEl.textContent = text;
  contextEl.title = detail;
  contextEl.setAttribute('aria-label', detail);
  contextEl.className = `context-meter ${level}`;
  // Said once when the level changes, not at every keystroke.
  if (level !== contextLevel && level !== 'ok') announcer.textContent = detail;
  contextLevel = level;
}

function renderChips(items: AttachmentChip[]): void {
  chips = items;
  chipsEl.hidden = items.length === 0;
  chipsEl.replaceChildren(...chipElements(items));
  updateContext();
}

function setBusy(value: boolean): void {
  busy = value;
  sendButton.hidden = value;
  stopButton.hidden = !value;
  log.setAttribute('aria-busy', String(value));
  document.body.classList.toggle('busy', value);
  if (!value) statusEl.textContent = '';
}

function updateTotals(): void {
  if (!conversation) return;
  const t = totals(conversation);
  totalsEl.textContent = t.total > 0 ? l10n.t('{0} tokens ({1} prompt, {2} completion)', t.total, t.prompt, t.completion) : '';
  totalsEl.title = totalsEl.textContent;
}

/** A turn's element, named after the conversation's deployment when the turn does not say. */
function elementOf(t: ChatTurn): HTMLElement {
  const turns = conversation?.turns ?? [];
  const at = turns.findIndex((x) => x.id === t.id);
  const asked = (at < 0 ? turns : turns.slice(0, at)).findLast((x) => x.role === 'user');
  return turnElement(t, conversation?.deployment ?? l10n.t('Assistant'), renderer, asked?.id);
}

function renderConversation(): void {
  if (!conversation) return;
  streams.clear();
  for (const p of progress.values()) p.stop();
  progress.clear();
  log.replaceChildren(...conversation.turns.map(elementOf));
  if (conversation.turns.length === 0) log.append(emptyState(conversation.deployment));
  updateTotals();
  renderSettings(conversation.params);
  document.title = conversation.title;
  updateContext();
  follow.toEnd();
}

function handle(msg: HostMessage): void {
  switch (msg.type) {
    case 'init':
      conversation = msg.conversation;
      deployments = msg.deployments;
      vscode.setState({ conversationId: conversation.id });
      setBusy(msg.busy);
      renderDeployments(deploymentSelect, deployments, conversation);
      renderConversation();
      break;
    case 'conversation':
      conversation = msg.conversation;
      renderDeployments(deploymentSelect, deployments, conversation);
      renderConversation();
      break;
    case 'deployments':
      deployments = msg.deployments;
      renderDeployments(deploymentSelect, deployments, conversation);
      updateContext();
      break;
    case 'attachments':
      $<HTMLButtonElement>('attach-image').hidden = !msg.imageInput;
      renderChips(msg.items);
      break;
    case 'turnStarted': {
      if (!conversation) return;
      log.querySelector('.empty')?.remove();
      if (msg.turn.role === 'user') {
        conversation.turns.push(msg.turn);
        log.append(elementOf(msg.turn));
        // The user just sent this: show it and what follows, wherever they had scrolled.
        follow.toEnd();
      } else {
        conversation.turns.push(msg.turn);
        const el = elementOf(msg.turn);
        el.classList.add('streaming');
        log.append(el);
        streams.set(msg.turn.id, new StreamView(el.querySelector('.turn-body')!, renderer));
        progress.set(msg.turn.id, new ReplyProgress(el.querySelector('.turn-foot')!));
        setBusy(true);
      }
      updateContext();
      follow.contentChanged();
      break;
    }
    case 'delta': {
      streams.get(msg.turnId)?.append(msg.text);
      progress.get(msg.turnId)?.add(msg.text);
      statusEl.textContent = '';
      follow.contentChangedNextFrame();
      break;
    }
    case 'reasoningDelta': {
      const el = log.querySelector(`[data-turn-id="${CSS.escape(msg.turnId)}"]`);
      if (el) appendReasoning(el, msg.text);
      follow.contentChangedNextFrame();
      break;
    }
    case 'backgroundStatus':
      statusEl.textContent = backgroundText(msg.status, msg.elapsedSeconds);
      break;
    case 'retryCountdown':
      statusEl.textContent = l10n.t('Rate limited by the service: retrying in {0} s. Press Stop to give up.', msg.seconds);
      break;
    case 'turnFinished': {
      if (!conversation) return;
      const i = conversation.turns.findIndex((t) => t.id === msg.turn.id);
      if (i >= 0) conversation.turns[i] = msg.turn;
      const old = log.querySelector(`[data-turn-id="${msg.turn.id}"]`);
      const stream = streams.get(msg.turn.id);
      streams.delete(msg.turn.id);
      progress.get(msg.turn.id)?.stop();
      progress.delete(msg.turn.id);
      const el = elementOf({ ...msg.turn, content: '' });
      const body = el.querySelector<HTMLElement>('.turn-body')!;
      statusEl.textContent = '';
      // A background reply arrives whole, not as a stream: render it from the turn.
      if (stream && stream.content === msg.turn.content) {
        // Keep the DOM the stream built; one final render makes it exact.
        stream.finish();
        body.replaceWith(stream.element);
      } else {
        body.innerHTML = renderer.render(msg.turn.content);
      }
      old?.replaceWith(el);
      setBusy(false);
      updateTotals();
      updateContext();
      follow.contentChanged();
      break;
    }
    case 'restoreDraft':
      if (input.value.trim()) break;
      input.value = msg.text;
      editing.restoredDraft = msg.text;
      if (msg.turnId) editing.start(msg.turnId, l10n.t('Your message is back in the box: edit it and press Enter to send it in place of the failed one, or Escape to leave it.'));
      break;
  }
}

/** Puts a user message into the box to edit; sending replaces it and everything after it. */
function editTurn(turnId: string): void {
  const turn = conversation?.turns.find((t) => t.id === turnId && t.role === 'user');
  if (!turn || busy) return;
  editing.start(turnId, l10n.t('Editing a message: Enter sends it, and the conversation continues from there. Escape cancels.'));
  input.value = turn.content;
  input.focus();
}

function submit(): void {
  const text = input.value;
  if (!text.trim() || busy) return;
  if (editing.turnId && conversation?.turns.some((t) => t.id === editing.turnId)) post({ type: 'editFrom', turnId: editing.turnId, text });
  else post({ type: 'send', text });
  editing.stop();
  input.value = '';
  follow.toEnd();
}

input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  } else if (e.key === 'Escape' && editing.turnId) {
    editing.stop();
    input.value = '';
  }
});
sendButton.addEventListener('click', submit);
input.addEventListener('input', () => updateContext());
stopButton.addEventListener('click', () => post({ type: 'stop' }));
deploymentSelect.addEventListener('change', () => {
  const [connectionId, deployment] = JSON.parse(deploymentSelect.value) as [string, string];
  post({ type: 'setDeployment', connectionId, deployment });
});

// Settings: sent when a field is left or changed.
for (const id of PARAM_FIELDS) $(id).addEventListener('change', () => post({ type: 'setParams', params: readParams() }));

document.addEventListener('click', (e) => {
  const target = e.target as HTMLElement;
  const link = target.closest('a');
  if (link) {
    // Links never navigate the webview: the extension opens safe ones outside.
    e.preventDefault();
    const href = link.getAttribute('href');
    if (href) post({ type: 'openLink', href });
    return;
  }
  const button = target.closest<HTMLElement>('[data-action]');
  if (!button) return;
  const action = button.dataset.action;
  if (action === 'copy' || action === 'insert') {
    const code = button.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    post({ type: action === 'copy' ? 'copyCode' : 'insertCode', code });
    if (action === 'copy') {
      const label = button.querySelector('span:last-child');
      if (label) {
        label.textContent = l10n.t('Copied');
        setTimeout(() => (label.textContent = l10n.t('Copy')), 1500);
      }
    }
  } else if (action === 'regenerate') {
    // Retrying instead of editing: the message given back is not needed in the box.
    if (editing.restoredDraft !== undefined && input.value === editing.restoredDraft) input.value = '';
    editing.stop();
    post({ type: 'regenerate' });
  } else if (action === 'example') {
    input.value = button.textContent ?? '';
    input.focus();
    updateContext();
  } else if (action === 'open-settings') {
    const settings = document.querySelector<HTMLDetailsElement>('details.settings')!;
    settings.open = true;
    $('system-prompt').focus();
  } else if (action === 'attach') {
    const kind = button.dataset.kind;
    if (kind === 'selection' || kind === 'file' || kind === 'image') post({ type: 'attach', kind });
  } else if (action === 'remove-attachment' && button.dataset.id) {
    post({ type: 'removeAttachment', id: button.dataset.id });
    input.focus();
  } else if (action === 'copy-turn' && button.dataset.turnId) {
    post({ type: 'copyTurn', turnId: button.dataset.turnId });
    announcer.textContent = l10n.t('Copied to the clipboard.');
    button.classList.add('done');
    setTimeout(() => button.classList.remove('done'), 1500);
  } else if (action === 'show-trace' && button.dataset.turnId) {
    post({ type: 'showTrace', turnId: button.dataset.turnId });
  } else if (action === 'edit') {
    const turnId = button.dataset.turnId ?? (conversation && [...conversation.turns].reverse().find((t) => t.role === 'user')?.id);
    if (turnId) editTurn(turnId);
  }
});

setBusy(false);
post({ type: 'ready' });
input.focus();
