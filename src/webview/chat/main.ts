/**
 * The chat panel's page. It talks to the extension only through the typed protocol, validates
 * everything it receives, and never sees a key or token.
 */
import { totals } from '../../chat/conversation';
import { parseHostMessage, type ChatTurn, type ConversationView, type DeploymentOption, type HostMessage, type ViewMessage } from '../../chat/protocol';
import { createRenderer } from './markdown';
import { $, PARAM_FIELDS, readParams, renderDeployments, renderSettings } from './settingsForm';
import { appendReasoning } from './reasoningView';
import { StreamView } from './streamView';
import { actionBar, turnElement } from './turnView';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const renderer = createRenderer();
const post = (msg: ViewMessage) => vscode.postMessage(msg);

const log = $<HTMLDivElement>('messages');
const input = $<HTMLTextAreaElement>('input');
const sendButton = $<HTMLButtonElement>('send');
const stopButton = $<HTMLButtonElement>('stop');
const deploymentSelect = $<HTMLSelectElement>('deployment');
const totalsEl = $<HTMLSpanElement>('totals');
const statusEl = $<HTMLDivElement>('status');
const editBanner = $<HTMLDivElement>('edit-banner');

let conversation: ConversationView | undefined;
let deployments: DeploymentOption[] = [];
let busy = false;
let editing = false;
const streams = new Map<string, StreamView>();

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
  totalsEl.textContent = t.total > 0 ? `${t.total} tokens (${t.prompt} prompt, ${t.completion} completion)` : '';
}

function renderActions(): void {
  for (const old of log.querySelectorAll('.turn-actions')) old.remove();
  if (!conversation || busy) return;
  const turns = conversation.turns;
  const lastUser = [...turns].reverse().find((t) => t.role === 'user');
  const last = turns.at(-1);
  if (last?.role === 'assistant' && !last.error) log.querySelector(`[data-turn-id="${last.id}"]`)?.append(actionBar('regenerate'));
  if (lastUser) log.querySelector(`[data-turn-id="${lastUser.id}"]`)?.append(actionBar('edit'));
}

/** A turn's element, named after the conversation's deployment when the turn does not say. */
const elementOf = (t: ChatTurn) => turnElement(t, conversation?.deployment ?? 'Assistant', renderer);

function renderConversation(): void {
  if (!conversation) return;
  streams.clear();
  log.replaceChildren(...conversation.turns.map(elementOf));
  if (conversation.turns.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'empty';
    empty.textContent = `Ask ${conversation.deployment} anything. Enter sends, Shift+Enter starts a new line.`;
    log.append(empty);
  }
  renderActions();
  updateTotals();
  renderSettings(conversation.params);
  document.title = conversation.title;
  log.scrollTop = log.scrollHeight;
}

function stickToBottom(): void {
  if (log.scrollHeight - log.scrollTop - log.clientHeight < 120) log.scrollTop = log.scrollHeight;
}

/** At most one scroll per frame while a reply streams (each one reads layout). */
let scrollScheduled = false;
function stickToBottomNextFrame(): void {
  if (scrollScheduled) return;
  scrollScheduled = true;
  requestAnimationFrame(() => {
    scrollScheduled = false;
    stickToBottom();
  });
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
      break;
    case 'turnStarted': {
      if (!conversation) return;
      log.querySelector('.empty')?.remove();
      if (msg.turn.role === 'user') {
        conversation.turns.push(msg.turn);
        log.append(elementOf(msg.turn));
      } else {
        conversation.turns.push(msg.turn);
        const el = elementOf(msg.turn);
        el.classList.add('streaming');
        log.append(el);
        streams.set(msg.turn.id, new StreamView(el.querySelector('.turn-body')!, renderer));
        setBusy(true);
      }
      renderActions();
      stickToBottom();
      break;
    }
    case 'delta': {
      streams.get(msg.turnId)?.append(msg.text);
      statusEl.textContent = '';
      stickToBottomNextFrame();
      break;
    }
    case 'reasoningDelta': {
      const el = log.querySelector(`[data-turn-id="${CSS.escape(msg.turnId)}"]`);
      if (el) appendReasoning(el, msg.text);
      stickToBottomNextFrame();
      break;
    }
    case 'retryCountdown':
      statusEl.textContent = `Rate limited by the service: retrying in ${msg.seconds} s. Press Stop to give up.`;
      break;
    case 'turnFinished': {
      if (!conversation) return;
      const i = conversation.turns.findIndex((t) => t.id === msg.turn.id);
      if (i >= 0) conversation.turns[i] = msg.turn;
      const old = log.querySelector(`[data-turn-id="${msg.turn.id}"]`);
      const stream = streams.get(msg.turn.id);
      streams.delete(msg.turn.id);
      const el = elementOf({ ...msg.turn, content: '' });
      const body = el.querySelector<HTMLElement>('.turn-body')!;
      if (stream) {
        // Keep the DOM the stream built; one final render makes it exact.
        stream.finish();
        body.replaceWith(stream.element);
      } else {
        body.innerHTML = renderer.render(msg.turn.content);
      }
      old?.replaceWith(el);
      setBusy(false);
      renderActions();
      updateTotals();
      stickToBottom();
      break;
    }
    case 'restoreDraft':
      if (!input.value.trim()) input.value = msg.text;
      break;
  }
}

window.addEventListener('message', (event) => {
  const msg = parseHostMessage(event.data);
  if (msg) handle(msg);
});

function submit(): void {
  const text = input.value;
  if (!text.trim() || busy) return;
  if (editing) {
    post({ type: 'editLast', text });
    editing = false;
    editBanner.hidden = true;
  } else {
    post({ type: 'send', text });
  }
  input.value = '';
}

input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  } else if (e.key === 'Escape' && editing) {
    editing = false;
    editBanner.hidden = true;
    input.value = '';
  }
});
sendButton.addEventListener('click', submit);
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
        label.textContent = 'Copied';
        setTimeout(() => (label.textContent = 'Copy'), 1500);
      }
    }
  } else if (action === 'regenerate') {
    post({ type: 'regenerate' });
  } else if (action === 'edit') {
    const lastUser = conversation && [...conversation.turns].reverse().find((t) => t.role === 'user');
    if (!lastUser) return;
    editing = true;
    editBanner.hidden = false;
    input.value = lastUser.content;
    input.focus();
  } else if (action === 'export-markdown' || action === 'export-json') {
    post({ type: 'export', format: action === 'export-json' ? 'json' : 'markdown' });
  } else if (action === 'clear') {
    post({ type: 'clear' });
  }
});

setBusy(false);
post({ type: 'ready' });
input.focus();
