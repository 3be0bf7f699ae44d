/** How a turn looks: its text, its error with Retry, its footer (model, time, tokens), its action buttons. */
import type { ChatTurn } from '../../chat/protocol';
import { escapeHtml, type Renderer } from './markdown';
import { addTurnExtras } from './reasoningView';

export function formatUsage(t: ChatTurn): string {
  const parts: string[] = [];
  if (t.model) parts.push(t.model);
  if (t.latencyMs !== undefined) parts.push(`${(t.latencyMs / 1000).toFixed(1)} s`);
  if (t.usage) {
    const reasoning = t.usage.completion_tokens_details?.reasoning_tokens;
    parts.push(`${t.usage.prompt_tokens} + ${t.usage.completion_tokens} = ${t.usage.total_tokens} tokens${reasoning ? ` (${reasoning} reasoning)` : ''}`);
  }
  if (t.finishReason === 'length') parts.push('cut at the token limit');
  if (t.finishReason === 'content_filter') parts.push('stopped by the content filter');
  if (t.stopped) parts.push('stopped');
  return parts.join(' · ');
}

/** One turn of the conversation as an element; `assistantName` when the turn does not name its deployment. */
export function turnElement(t: ChatTurn, assistantName: string, renderer: Renderer): HTMLElement {
  const el = document.createElement('article');
  el.className = `turn ${t.role}`;
  el.dataset.turnId = t.id;
  const who = t.role === 'user' ? 'You' : (t.deployment ?? assistantName);
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
    addTurnExtras(el, t.reasoningSummary, t.notes, renderer);
  }
  return el;
}

/** The Regenerate or Edit button under a turn. */
export function actionBar(action: 'regenerate' | 'edit'): HTMLElement {
  const [icon, label, aria] =
    action === 'regenerate' ? ['refresh', 'Regenerate', 'Regenerate the last reply'] : ['edit', 'Edit', 'Edit your last message and send it again'];
  const bar = document.createElement('div');
  bar.className = 'turn-actions';
  bar.innerHTML =
    `<button type="button" class="icon-button" data-action="${action}" aria-label="${aria}">` +
    `<span class="codicon codicon-${icon}" aria-hidden="true"></span><span>${label}</span></button>`;
  return bar;
}
