/**
 * The naive reference the chat page is measured against: on every token, re-render the whole
 * reply's markdown (same renderer) into the DOM, with no frame batching.
 */
import { createRenderer } from '../src/webview/chat/markdown';

const renderer = createRenderer();
let text = '';
let target: HTMLElement | null = null;
window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type: string; text?: string; turn?: { role: string } };
  if (m.type === 'turnStarted' && m.turn?.role === 'assistant') {
    target = document.createElement('div');
    document.getElementById('messages')!.append(target);
    text = '';
  } else if (m.type === 'delta' && target) {
    text += m.text;
    target.innerHTML = renderer.render(text);
  }
});
