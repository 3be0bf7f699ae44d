/**
 * The chat panel's page. It talks to the extension only through the typed protocol, validates
 * everything it receives, and never sees a key or token.
 */
import { totals } from '../../chat/conversation';
import { parseHostMessage, type ChatParams, type ChatTurn, type ConversationView, type DeploymentOption, type HostMessage, type ViewMessage } from '../../chat/protocol';
import { createRenderer, escapeHtml } from './markdown';
import { StreamView } from './streamView';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const renderer = createRenderer();
const post = (msg: ViewMessage) => vscode.postMessage(msg);

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
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

function formatUsage(t: ChatTurn): string {
  const parts: string[] = [];
  if (t.model) parts.push(t.model);
  if (t.latencyMs !== undefined) parts.push(`${(t.latencyMs / 1000).toFixed(1)} s`);
  if (t.usage) parts.push(`${t.usage.prompt_tokens} + ${t.usage.completion_tokens} = ${t.usage.total_tokens} tokens`);
  if (t.finishReason === 'length') parts.push('cut at the token limit');
  if (t.finishReason === 'content_filter') parts.push('stopped by the content filter');
  if (t.stopped) parts.push('stopped');
  return parts.join(' · ');
}

function updateTotals(): void {
  if (!conversation) return;
  const t = totals(conversation);
  totalsEl.textContent = t.total > 0 ? `${t.total} tokens (${t.prompt} prompt, ${t.completion} completion)` : '';
}

function turnElement(t: ChatTurn): HTMLElement {
  const el = document.createElement('article');
  el.className = `turn ${t.role}`;
  el.dataset.turnId = t.id;
  const who = t.role === 'user' ? 'You' : (t.deployment ?? conversation?.deployment ?? 'Assistant');
  el.setAttribute('aria-label', `${t.role === 'user' ? 'You' : who} said`);
  const head = document.createElement('div');
  head.className = 'turn-head';
  head.innerHTML = `<span class="codicon ${t.role === 'user' ? 'codicon-account' : 'codicon-hubot'}" aria-hidden="true"></span><span class="who">${escapeHtml(who)}</span>`;
  const body = document.createElement('div');
  body.className = 'turn-body';
  if (t.role === 'user') {
    body.textContent = t.content;
  } else if (t.content) {
    body.innerHTML = renderer.render(t.content);
  }
  el.append(head, body);
  if (t.role === 'assistant') {
    if (t.error) {
      const err = document.createElement('div');
      err.className = 'error';
      err.setAttribute('role', 'alert');
      err.innerHTML = `<span class="codicon codicon-error" aria-hidden="true"></span><span class="error-text"></span>`;
      err.querySelector('.error-text')!.textContent = t.error.message;
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.className = 'secondary';
      retry.dataset.action = 'regenerate';
      retry.textContent = 'Retry';
      err.append(retry);
      el.append(err);
    }
    const foot = document.createElement('div');
    foot.className = 'turn-foot';
    foot.textContent = formatUsage(t);
    el.append(foot);
  }
  return el;
}

function renderActions(): void {
  for (const old of log.querySelectorAll('.turn-actions')) old.remove();
  if (!conversation || busy) return;
  const turns = conversation.turns;
  const lastUser = [...turns].reverse().find((t) => t.role === 'user');
  const last = turns.at(-1);
  if (last?.role === 'assistant' && !last.error) {
    const bar = document.createElement('div');
    bar.className = 'turn-actions';
    bar.innerHTML =
      '<button type="button" class="icon-button" data-action="regenerate" aria-label="Regenerate the last reply">' +
      '<span class="codicon codicon-refresh" aria-hidden="true"></span><span>Regenerate</span></button>';
    log.querySelector(`[data-turn-id="${last.id}"]`)?.append(bar);
  }
  if (lastUser) {
    const bar = document.createElement('div');
    bar.className = 'turn-actions';
    bar.innerHTML =
      '<button type="button" class="icon-button" data-action="edit" aria-label="Edit your last message and send it again">' +
      '<span class="codicon codicon-edit" aria-hidden="true"></span><span>Edit</span></button>';
    log.querySelector(`[data-turn-id="${lastUser.id}"]`)?.append(bar);
  }
}

function renderConversation(): void {
  if (!conversation) return;
  streams.clear();
  log.replaceChildren(...conversation.turns.map(turnElement));
  if (conversation.turns.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'empty';
    empty.textContent = `Ask ${conversation.deployment} anything. Enter sends, Shift+Enter starts a new line.`;
    log.append(empty);
  }
  renderActions();
  updateTotals();
  renderSettings();
  document.title = conversation.title;
  log.scrollTop = log.scrollHeight;
}

function renderDeployments(): void {
  deploymentSelect.replaceChildren(
    ...deployments.map((d) => {
      const o = document.createElement('option');
      o.value = JSON.stringify([d.connectionId, d.deployment]);
      o.textContent = `${d.deployment}${d.model && d.model !== d.deployment ? ` (${d.model})` : ''} · ${d.connectionLabel}`;
      return o;
    }),
  );
  if (conversation) {
    const current = JSON.stringify([conversation.connectionId, conversation.deployment]);
    if (!deployments.some((d) => JSON.stringify([d.connectionId, d.deployment]) === current)) {
      const o = document.createElement('option');
      o.value = current;
      o.textContent = `${conversation.deployment} · ${conversation.connectionLabel}`;
      deploymentSelect.prepend(o);
    }
    deploymentSelect.value = current;
  }
}

function renderSettings(): void {
  if (!conversation) return;
  const p = conversation.params;
  const set = (id: string, v: string) => {
    const el = $<HTMLInputElement>(id);
    if (document.activeElement !== el) el.value = v;
  };
  set('system-prompt', p.systemPrompt);
  set('temperature', p.temperature?.toString() ?? '');
  set('top-p', p.topP?.toString() ?? '');
  set('max-tokens', p.maxTokens?.toString() ?? '');
  set('route', p.route);
  set('api-version', p.apiVersion ?? '');
  $<HTMLInputElement>('api-version').disabled = p.route !== 'deployment';
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
      renderDeployments();
      renderConversation();
      break;
    case 'conversation':
      conversation = msg.conversation;
      renderDeployments();
      renderConversation();
      break;
    case 'deployments':
      deployments = msg.deployments;
      renderDeployments();
      break;
    case 'turnStarted': {
      if (!conversation) return;
      log.querySelector('.empty')?.remove();
      if (msg.turn.role === 'user') {
        conversation.turns.push(msg.turn);
        log.append(turnElement(msg.turn));
      } else {
        conversation.turns.push(msg.turn);
        const el = turnElement(msg.turn);
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
      const el = turnElement({ ...msg.turn, content: '' });
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
const numberOrNull = (id: string) => {
  const v = $<HTMLInputElement>(id).value.trim();
  return v === '' ? null : Number(v);
};
function sendParams(): void {
  const params: Record<string, unknown> = {
    systemPrompt: $<HTMLTextAreaElement>('system-prompt').value,
    temperature: numberOrNull('temperature'),
    topP: numberOrNull('top-p'),
    maxTokens: numberOrNull('max-tokens'),
    route: $<HTMLSelectElement>('route').value as ChatParams['route'],
    apiVersion: $<HTMLInputElement>('api-version').value.trim(),
  };
  $<HTMLInputElement>('api-version').disabled = params.route !== 'deployment';
  post({ type: 'setParams', params: params as Partial<ChatParams> });
}
for (const id of ['system-prompt', 'temperature', 'top-p', 'max-tokens', 'route', 'api-version']) $(id).addEventListener('change', sendParams);

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
