/**
 * What every page of ours shares: the link to the extension (typed posts out, and only messages
 * that pass the page's protocol check in), the element lookup, and element helpers that put text
 * on the page as text, never as HTML.
 */

/** The webview's handle on the extension (`acquireVsCodeApi()`, which a page may call once). */
export interface VsCodeApi {
  postMessage(msg: unknown): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface PageLink<View> {
  post(msg: View): void;
  /** What the page keeps across a reload of the window (the extension's serializer reads it). */
  setState(state: unknown): void;
  getState(): unknown;
}

/**
 * Connects the page: each message from the extension is checked with `parse` (one that does not
 * pass is dropped) and handed to `handle`. Say `ready` once the page can take messages.
 */
export function connect<View, Host>(parse: (raw: unknown) => Host | undefined, handle: (msg: Host) => void): PageLink<View> {
  const api = acquireVsCodeApi();
  window.addEventListener('message', (event) => {
    const msg = parse(event.data);
    if (msg !== undefined) handle(msg);
  });
  return { post: (msg) => api.postMessage(msg), setState: (s) => api.setState(s), getState: () => api.getState() };
}

/** The element with this id (the page's markup has it). */
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** An element with text (never HTML) and an optional class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** A codicon, hidden from screen readers (its button or text says what it is). */
export function icon(name: string): HTMLSpanElement {
  const s = el('span', undefined, `codicon codicon-${name}`);
  s.setAttribute('aria-hidden', 'true');
  return s;
}

/** A button the page's click handler acts on by its `data-action`. */
export function actionButton(text: string | undefined, className: string, action: string): HTMLButtonElement {
  const b = el('button', text, className);
  b.type = 'button';
  b.dataset.action = action;
  return b;
}

/** A definition list's rows, names and values as text; a row without a value is left out. */
export function fillKv(dl: HTMLElement, rows: ReadonlyArray<readonly [string, string | undefined]>): void {
  dl.replaceChildren(...rows.flatMap(([k, v]) => (v === undefined ? [] : [el('dt', k), el('dd', v)])));
}
