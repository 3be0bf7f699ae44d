/** How a turn looks: its head (who, when, actions), its text, its error, its footer (model, time, tokens). */
import * as l10n from '@vscode/l10n';
import type { ChatTurn } from '../../chat/model';
import { actionButton, el, icon } from '../shared/page';
import { escapeHtml, type Renderer } from './markdown';
import { addTurnExtras } from './reasoningView';

/** An attachment's codicon, in the composer's chips and in the message that carried it. */
export const attachmentIcon = (kind: string): string => (kind === 'image' ? 'file-media' : kind === 'file' ? 'file' : 'list-selection');

/** "1,152 cached, 64 reasoning, 40 audio in": the parts of the counts billed apart, or '' when none. */
export function tokenDetails(cached: number | undefined, reasoning: number | undefined, audioIn?: number, audioOut?: number): string {
  const parts: string[] = [];
  if (cached) parts.push(l10n.t('{0} cached', cached));
  if (reasoning) parts.push(l10n.t('{0} reasoning', reasoning));
  // An audio model's tokens are billed at the audio rate, input and output apart.
  if (audioIn) parts.push(l10n.t('{0} audio in', audioIn));
  if (audioOut) parts.push(l10n.t('{0} audio out', audioOut));
  return parts.join(', ');
}

export function formatUsage(t: ChatTurn): string {
  const parts: string[] = [];
  if (t.model) parts.push(t.model);
  if (t.latencyMs !== undefined) parts.push(l10n.t('{0} s', (t.latencyMs / 1000).toFixed(1)));
  if (t.usage) {
    const u = t.usage;
    // Cached input is billed at the model's cached rate, reasoning as output: each said apart.
    const [p, c] = [u.prompt_tokens_details, u.completion_tokens_details];
    const details = tokenDetails(p?.cached_tokens, c?.reasoning_tokens, p?.audio_tokens, c?.audio_tokens);
    const plain = l10n.t('{0} + {1} = {2} tokens', u.prompt_tokens, u.completion_tokens, u.total_tokens);
    const sum = details ? `${plain} (${details})` : plain;
    parts.push(t.usageEstimated ? l10n.t('about {0} (estimated)', sum) : sum);
  }
  if (t.finishReason === 'length') parts.push(l10n.t('cut at the token limit'));
  if (t.finishReason === 'content_filter') parts.push(l10n.t('stopped by the content filter'));
  if (t.stopped) parts.push(l10n.t('stopped'));
  if (t.interrupted) parts.push(l10n.t('cut off'));
  return parts.join(' · ');
}

/** A refusal by the content filter fails the same way when retried: the user has to rephrase. */
export function isContentFilterRefusal(t: ChatTurn): boolean {
  return t.error?.code === 'content_filter' || t.finishReason === 'content_filter';
}

function toolButton(action: string, icon: string, text: string, turnId: string): string {
  const label = escapeHtml(text);
  return (
    `<button type="button" class="tool" data-action="${action}" data-turn-id="${escapeHtml(turnId)}" title="${label}" aria-label="${label}">` +
    `<span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`
  );
}

/** The actions of a message, shown on hover and keyboard focus (CSS hides those that do not apply now). */
function toolbar(t: ChatTurn): string {
  const buttons =
    t.role === 'user'
      ? [
          toolButton('edit', 'edit', l10n.t('Edit this message (the conversation continues from it)'), t.id),
          toolButton('copy-turn', 'copy', l10n.t('Copy this message'), t.id),
        ]
      : [
          toolButton('copy-turn', 'copy', l10n.t('Copy the reply as Markdown'), t.id),
          toolButton('regenerate', 'refresh', l10n.t('Regenerate the reply'), t.id),
          ...(t.traceId ? [toolButton('show-trace', 'list-tree', l10n.t('Show Trace: what this reply\'s requests did, on a timeline'), t.id)] : []),
        ];
  return `<div class="turn-tools" role="toolbar" aria-label="${escapeHtml(l10n.t('Message actions'))}">${buttons.join('')}</div>`;
}

function timeOf(createdAt: number): string {
  const d = new Date(createdAt);
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `<time datetime="${d.toISOString()}" title="${escapeHtml(d.toLocaleString())}">${escapeHtml(time)}</time>`;
}

/** A reply cut off by a reload or a crash: what arrived stays, and Regenerate asks again. */
function interruptedNotice(): HTMLElement {
  const box = el('div', undefined, 'error interrupted');
  box.setAttribute('role', 'note');
  const again = actionButton(l10n.t('Regenerate'), 'secondary', 'regenerate');
  again.setAttribute('aria-label', l10n.t('Regenerate the reply that was cut off'));
  const text = l10n.t('This reply was cut off: the window reloaded (or VS Code stopped) while it arrived. What came is kept.');
  box.append(icon('debug-disconnect'), el('span', text, 'error-text'), again);
  return box;
}

/**
 * One turn of the conversation as an element; `assistantName` when the turn does not name its
 * deployment, `askedTurnId` the user message a reply answers (its Edit button edits that one).
 */
export function turnElement(t: ChatTurn, assistantName: string, renderer: Renderer, askedTurnId?: string): HTMLElement {
  const turn = el('article', undefined, `turn ${t.role}`);
  turn.dataset.turnId = t.id;
  const who = t.role === 'user' ? l10n.t('You') : (t.deployment ?? assistantName);
  turn.setAttribute('aria-label', l10n.t('{0} said', who));
  const head = el('div', undefined, 'turn-head');
  head.innerHTML =
    `<span class="codicon ${t.role === 'user' ? 'codicon-account' : 'codicon-hubot'}" aria-hidden="true"></span>` +
    `<span class="who">${escapeHtml(who)}</span>${Number.isFinite(t.createdAt) && t.createdAt > 0 ? timeOf(t.createdAt) : ''}${toolbar(t)}`;
  const body = el('div', undefined, 'turn-body');
  if (t.role === 'user') {
    body.textContent = t.content;
  } else if (t.content) {
    body.innerHTML = renderer.render(t.content);
  }
  turn.append(head, body);
  const attached = Array.isArray(t.attachments) ? t.attachments.filter((a) => typeof a?.name === 'string') : [];
  if (attached.length) {
    const list = el('div', undefined, 'turn-attachments');
    list.setAttribute('aria-label', l10n.t('Attached'));
    for (const a of attached) {
      const chip = el('span', undefined, 'chip');
      chip.append(icon(attachmentIcon(a.kind)), a.name);
      list.append(chip);
    }
    turn.append(list);
  }
  if (t.role === 'assistant') {
    if (t.error) {
      const err = el('div', undefined, 'error');
      err.setAttribute('role', 'alert');
      // A refusal by the content filter is edited, not retried (it would fail the same way).
      const edit = isContentFilterRefusal(t) && askedTurnId;
      const retry = edit ? actionButton(l10n.t('Edit'), 'secondary', 'edit') : actionButton(l10n.t('Retry'), 'secondary', 'regenerate');
      if (edit) {
        retry.dataset.turnId = edit;
        retry.setAttribute('aria-label', l10n.t('Edit your message and send it again'));
      }
      err.append(icon('error'), el('span', t.error.message, 'error-text'), retry);
      turn.append(err);
    }
    if (t.interrupted && !t.error) turn.append(interruptedNotice());
    if (isContentFilterRefusal(t) || t.error) turn.classList.add('no-regenerate');
    turn.append(el('div', formatUsage(t), 'turn-foot'));
    addTurnExtras(turn, t.reasoningSummary, t.notes, renderer, t.filterVerdicts);
  }
  return turn;
}

/** Prompts to start from (a function: said in the display language, read when shown). */
const examples = () => [
  l10n.t('Explain what this regular expression matches: {0}', '^(?:[a-z0-9-]+\\.)+[a-z]{2,}$'),
  l10n.t('Write a TypeScript function that retries a fetch with exponential backoff.'),
  l10n.t('How do I verify a webhook signature in Node.js?'),
];

/** The empty chat: what to do, a few prompts to start from, where the system prompt is. */
export function emptyState(deployment: string): HTMLElement {
  const box = el('div', undefined, 'empty');
  const list = el('div', undefined, 'examples');
  list.setAttribute('aria-label', l10n.t('Example prompts'));
  list.append(...examples().map((text) => actionButton(text, 'secondary example', 'example')));
  const hint = el('p');
  // The sentence with its link: the button's words are a piece of their own, put in as text.
  const link = actionButton(l10n.t('system prompt and parameters'), 'link-button', 'open-settings');
  const [before, after = ''] = l10n.t('The {0} (temperature, max tokens, route) are above the conversation.').split('{0}');
  hint.append(before, link, after);
  box.append(el('p', l10n.t('Ask {0} anything. Enter sends, Shift+Enter starts a new line.', deployment)), list, hint);
  return box;
}
