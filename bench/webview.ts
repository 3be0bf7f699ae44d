/**
 * Browser benchmark of the chat page: the real webview bundle in Chromium (Playwright), a
 * 4,000-token reply streamed at 200 tokens/s through window messages as the extension sends
 * them. Reports main-thread busy time per second (CDP TaskDuration) and the longest frame, beside
 * the naive re-render-everything page measured in the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { reply, tokenPieces } from '../src/emulator/responder';
import { chatBodyHtml } from '../src/webview/chat/markup';

const TOKENS = 4000;
const RATE = 200;
const root = join(__dirname, '..');

export interface WebviewResult {
  busyMsPerSecond: number;
  longestFrameMs: number;
  seconds: number;
}

/** A long reply with paragraphs, lists and code blocks, as a model would stream it. */
function replyPieces(): string[] {
  const prose = reply(`/long ${TOKENS}`, 'bench').text.split('\n\n');
  const code = reply('/code python', 'bench').text;
  const parts: string[] = [];
  prose.forEach((p, i) => {
    parts.push(p);
    if (i % 4 === 3) parts.push(code);
    if (i % 6 === 5) parts.push('- first point\n- second point\n- third point');
  });
  return tokenPieces(parts.join('\n\n')).slice(0, TOKENS);
}

/**
 * Runs in the page (as text: a transpiled function would carry helpers the page lacks). Sends
 * the deltas as window messages at the given rate and records the longest gap between frames.
 */
const STREAM_IN_PAGE = `(pieces, rate) => new Promise((resolve) => {
  let maxFrame = 0, last = performance.now(), running = true;
  const frame = (now) => { maxFrame = Math.max(maxFrame, now - last); last = now; if (running) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  window.postMessage({ type: 'turnStarted', turn: { id: 'a', role: 'assistant', content: '', createdAt: 0 } }, '*');
  const start = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    // What is due at this rate; late timers send a burst, as a socket would.
    const due = Math.min(pieces.length, Math.floor(((performance.now() - start) / 1000) * rate));
    while (sent < due) window.postMessage({ type: 'delta', turnId: 'a', text: pieces[sent++] }, '*');
    if (sent >= pieces.length) {
      clearInterval(timer);
      requestAnimationFrame(() => requestAnimationFrame(() => { running = false; resolve(maxFrame); }));
    }
  }, 1000 / rate);
})`;

async function measure(script: string, pieces: string[]): Promise<WebviewResult> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const css = readFileSync(join(root, 'media', 'chat.css'), 'utf8');
    await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body>${chatBodyHtml()}</body></html>`);
    await page.evaluate('window.acquireVsCodeApi = () => ({ postMessage() {}, setState() {}, getState() {} })');
    await page.addScriptTag({ content: script });
    const conversation = { id: 'c', title: 'bench', connectionId: 'x', connectionLabel: 'x', deployment: 'gpt-4o', params: { systemPrompt: '', route: 'v1' }, turns: [] };
    await page.evaluate(`window.postMessage({ type: 'init', conversation: ${JSON.stringify(conversation)}, deployments: [], busy: false }, '*')`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskDuration = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
    const before = await taskDuration();
    const t0 = Date.now();
    const longest = (await page.evaluate(`(${STREAM_IN_PAGE})(${JSON.stringify(pieces)}, ${RATE})`)) as number;
    const seconds = (Date.now() - t0) / 1000;
    const busy = (await taskDuration()) - before;
    const rendered = (await page.evaluate("document.getElementById('messages').textContent.length")) as number;
    if (rendered < pieces.join('').length * 0.8) throw new Error(`the page rendered only ${rendered} characters`);
    return { busyMsPerSecond: busy / seconds, longestFrameMs: longest, seconds };
  } finally {
    await browser.close();
  }
}

export async function benchWebview(): Promise<{ ours: WebviewResult; naive: WebviewResult; tokens: number }> {
  const pieces = replyPieces();
  const ours = readFileSync(join(root, 'dist', 'webview', 'chat.js'), 'utf8');
  const naive = (await esbuild.build({ entryPoints: [join(__dirname, 'webview-baseline.ts')], bundle: true, format: 'iife', platform: 'browser', write: false })).outputFiles[0].text;
  return { ours: await measure(ours, pieces), naive: await measure(naive, pieces), tokens: pieces.length };
}
