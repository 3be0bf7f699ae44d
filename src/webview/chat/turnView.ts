/** How a turn looks: its head (who, when, actions), its text, its error, its footer (model, time, tokens). */
import type { ChatTurn } from '../../chat/model';
import { escapeHtml, type Renderer } from './markdown';
import { addTurnExtras } from './reasoningView';

export function formatUsage(t: ChatTurn): string {
  const parts: string[] = [];
  if (t.model) parts.push(t.model);
  if (t.latencyMs !== undefined) parts.push(`${(t.latencyMs / 1000).toFixed(1)} s`);
  if (t.usage) {
    const u = t.usage;
    const reasoning = u.completion_tokens_details?.reasoning_tokens;
    const sum = `${u.prompt_tokens} + ${u.completion_tokens} = ${u.total_tokens} tokens${reasoning ? ` (${reasoning} reasoning)` : ''}`;
    parts.push(t.usageEstimated ? `about ${sum} (estimated)` : sum);
  }
  if (t.finishReason === 'length') parts.push('cut at the token limit');
  if (t.finishReason === 'content_filter') parts.push('stopped by the content filter');
  if (t.stopped) parts.push('stopped');
  if (t.interrupted) parts.push('cut off');
  return parts.join(' · ');
}

/** A refusal by the content filter fails the same way when retried: the user has to rephrase. */
export function isContentFilterRefusal(t: ChatTurn): boolean {
  return t.error?.code === 'content_filter' || t.finishReason === 'content_filter';
}

function toolButton(action: string, icon: string, label: string, turnId: string): string {
  return (
    `<button type="button" class="tool" data-action="${action}" data-turn-id="${escapeHtml(turnId)}" title="${label}" aria-label="${label}">` +
    `<span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`
  );
}

/** The actions of a message, shown on hover and keyboard focus (CSS hides those that do not apply now). */
function toolbar(t: ChatTurn): string {
  const buttons =
    t.role === 'user'
      ? [toolButton('edit', 'edit', 'Edit this message (the conversation continues from it)', t.id), toolButton('copy-turn', 'copy', 'Copy this message', t.id)]
      : [toolButton('copy-turn', 'copy', 'Copy the reply as Markdown', t.id), toolButton('regenerate', 'refresh', 'Regenerate the reply', t.id)];
  return `<div class="turn-tools" role="toolbar" aria-label="Message actions">${buttons.join('')}</div>`;
}

function timeOf(createdAt: number): string {
  const d = new Date(createdAt);
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `<time datetime="${d.toISOString()}" title="${escapeHtml(d.toLocaleString())}">${escapeHtml(time)}</time>`;
}

/** A reply cut off by a reload or a crash: what arrived stays, and Regenerate asks again. */
function interruptedNotice(): HTMLElement {
  const box = document.createElement('div');
  box.className = 'error interrupted';
  box.setAttribute('role', 'note');
  box.innerHTML = '<span class="codicon codicon-debug-disconnect" aria-hidden="true"></span><span class="error-text"></span>';
  box.querySelector('.error-text')!.textContent = 'This reply was cut off: the window reloaded (or VS Code stopped) while it arrived. What came is kept.';
  const again = document.createElement('button');
  again.type = 'button';
  again.className = 'secondary';
  again.dataset.action = 'regenerate';
  again.textContent = 'Regenerate';
  again.setAttribute('aria-label', 'Regenerate the reply that was cut off');
  box.append(again);
  return box;
}

/**
 * One turn of the conversation as an element; `assistantName` when the turn does not name its
 * deployment, `askedTurnId` the user message a reply answers (its Edit button edits that one).
 */
export function turnElement(t: ChatTurn, assistantName: string, renderer: Renderer, askedTurnId?: string): HTMLElement {
  const el = document.createElement('article');
  el.className = `turn ${t.role}`;
  el.dataset.turnId = t.id;
  const who = t.role === 'user' ? 'You' : (t.deployment ?? assistantName);
  el.setAttribute('aria-label', `${who} said`);
  const head = document.createElement('div');
  head.className = 'turn-head';
  head.innerHTML =
    `<span class="codicon ${t.role === 'user' ? 'codicon-account' : 'codicon-hubot'}" aria-hidden="true"></span>` +
    `<span class="who">${escapeHtml(who)}</span>${Number.isFinite(t.createdAt) && t.createdAt > 0 ? timeOf(t.createdAt) : ''}${toolbar(t)}`;
  const body = document.createElement('div');
  body.className = 'turn-body';
  if (t.role === 'user') {
    body.textContent = t.content;
  } else if (t.content) {
    body.innerHTML = renderer.render(t.content);
  }
  el.append(head, body);
  const attached = Array.isArray(t.attachments) ? t.attachments.filter((a) => typeof a?.name === 'string') : [];
  if (attached.length) {
    const list = document.createElement('div');
    list.className = 'turn-attachments';
    list.setAttribute('aria-label', 'Attached');
    for (const a of attached) {
      const chip = document.createElement('span');
      chip.className = 'chip';
      chip.innerHTML = `<span class="codicon codicon-${a.kind === 'image' ? 'file-media' : a.kind === 'file' ? 'file' : 'list-selection'}" aria-hidden="true"></span>`;
      chip.append(a.name);
      list.append(chip);
    }
    el.append(list);
  }
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
      if (isContentFilterRefusal(t) && askedTurnId) {
        retry.dataset.action = 'edit';
        retry.dataset.turnId = askedTurnId;
        retry.textContent = 'Edit';
        retry.setAttribute('aria-label', 'Edit your message and send it again');
      } else {
        retry.dataset.action = 'regenerate';
        retry.textContent = 'Retry';
      }
      err.append(retry);
      el.append(err);
    }
    if (t.interrupted && !t.error) el.append(interruptedNotice());
    if (isContentFilterRefusal(t) || t.error) el.classList.add('no-regenerate');
    const foot = document.createElement('div');
    foot.className = 'turn-foot';
    foot.textContent = formatUsage(t);
    el.append(foot);
    addTurnExtras(el, t.reasoningSummary, t.notes, renderer);
  }
  return el;
}

const EXAMPLES = [
  'Explain what this regular expression matches: ^(?:[a-z0-9-]+\\.)+[a-z]{2,}$',
  'Write a TypeScript function that retries a fetch with exponential backoff.',
  'How do I verify a webhook signature in Node.js?',
];

/** The empty chat: what to do, a few prompts to start from, where the system prompt is. */
export function emptyState(deployment: string): HTMLElement {
  const el = document.createElement('div');
  el.className = 'empty';
  const intro = document.createElement('p');
  intro.textContent = `Ask ${deployment} anything. Enter sends, Shift+Enter starts a new line.`;
  const list = document.createElement('div');
  list.className = 'examples';
  list.setAttribute('aria-label', 'Example prompts');
  for (const text of EXAMPLES) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'secondary example';
    b.dataset.action = 'example';
    b.textContent = text;
    list.append(b);
  }
  const hint = document.createElement('p');
  hint.innerHTML = 'The <button type="button" class="link-button" data-action="open-settings">system prompt and parameters</button> (temperature, max tokens, route) are above the conversation.';
  el.append(intro, list, hint);
  return el;
}
