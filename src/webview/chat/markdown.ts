/**
 * Markdown for model output, which is untrusted: raw HTML is never rendered (markdown-it with
 * `html: false` escapes it), links keep only http(s)/mailto targets, images become links (the CSP
 * blocks remote images anyway), and code blocks get highlighting plus Copy / Insert buttons.
 */
import * as l10n from '@vscode/l10n';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLang from 'highlight.js/lib/languages/markdown';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';
import { isSafeLink } from './protocol';
import { escapeHtml } from '../shared/escape';

const LANGUAGES = { bash, cpp, csharp, css, diff, go, java, javascript, json, markdown: markdownLang, powershell, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
const ALIASES: Record<string, string> = {
  ts: 'typescript',
  js: 'javascript',
  py: 'python',
  sh: 'bash',
  shell: 'bash',
  cs: 'csharp',
  'c#': 'csharp',
  html: 'xml',
  yml: 'yaml',
  ps1: 'powershell',
  rs: 'rust',
  'c++': 'cpp',
  c: 'cpp',
};

export { escapeHtml };

export interface Renderer {
  /** `highlight: false` while a code block is still streaming (it re-renders every frame). */
  render(text: string, options?: { highlight?: boolean }): string;
}

export function createRenderer(): Renderer {
  // Stryker disable next-line BooleanLiteral: every render sets it first
  let highlight = true;
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
  md.validateLink = (url) => isSafeLink(url);
  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    // Stryker disable next-line OptionalChaining,Regex,StringLiteral: split always gives a first word; trimmed, one space or many split alike
    const info = token.info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    const lang = ALIASES[info] ?? info;
    const code = token.content;
    let body: string;
    if (highlight && lang && hljs.getLanguage(lang)) {
      body = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    } else {
      body = escapeHtml(code);
    }
    const name = info || 'text';
    return (
      `<div class="code-block"><div class="code-toolbar"><span class="code-lang">${escapeHtml(name)}</span>` +
      `<button type="button" class="icon-button" data-action="copy" title="${escapeHtml(l10n.t('Copy code'))}" aria-label="${escapeHtml(l10n.t('Copy {0} code', name))}">` +
      `<span class="codicon codicon-copy" aria-hidden="true"></span><span>${escapeHtml(l10n.t('Copy'))}</span></button>` +
      `<button type="button" class="icon-button" data-action="insert" title="${escapeHtml(l10n.t('Insert at cursor'))}" aria-label="${escapeHtml(l10n.t('Insert {0} code at the cursor', name))}">` +
      `<span class="codicon codicon-insert" aria-hidden="true"></span><span>${escapeHtml(l10n.t('Insert'))}</span></button>` +
      `</div><pre><code class="hljs${lang ? ` language-${escapeHtml(lang)}` : ''}">${body}</code></pre></div>`
    );
  };
  // Images would be remote loads: show them as links.
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx];
    // Stryker disable next-line StringLiteral: an image token always has a src
    const src = String(t.attrGet('src') ?? '');
    const alt = escapeHtml(t.content || src);
    // Stryker disable next-line StringLiteral,ConditionalExpression: a second guard; validateLink refuses an unsafe image before this rule runs
    return isSafeLink(src) ? `<a href="${escapeHtml(src)}">[image: ${alt}]</a>` : `[image: ${alt}]`;
  };
  const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    // Stryker disable next-line StringLiteral: a link token always has an href
    tokens[idx].attrSet('title', tokens[idx].attrGet('href') ?? '');
    return defaultLink(tokens, idx, options, env, self);
  };
  return {
    render(text, options) {
      highlight = options?.highlight !== false;
      return md.render(text);
    },
  };
}

/**
 * Where the text can be cut so that what comes before will never render differently: the last
 * blank line outside an open code fence. Everything before it is rendered once and kept.
 */
export function stableBoundary(text: string, from = 0): number {
  let boundary = from;
  let inFence = false;
  // Stryker disable next-line StringLiteral: read only inside a fence, after the fence set it
  let fenceMarker = '';
  let lineStart = from;
  // Stryker disable next-line EqualityOperator: at the very end there is no line ending to find either
  while (lineStart < text.length) {
    const lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) break; // the last line is still growing
    const line = text.slice(lineStart, lineEnd);
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (!inFence) {
        inFence = true;
        fenceMarker = m[1];
      } else if (m[1][0] === fenceMarker[0] && m[1].length >= fenceMarker.length && line.trim() === m[1]) {
        inFence = false;
      }
    } else if (!inFence && line.trim() === '') {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a cut right after `from` would only render an empty piece
      if (lineStart > from) boundary = lineEnd + 1;
    }
    lineStart = lineEnd + 1;
  }
  return boundary;
}

/** True when the text ends inside a code fence that has not closed yet. */
export function endsInOpenFence(text: string): boolean {
  let open = false;
  for (const line of text.split('\n')) if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) open = !open;
  return open;
}
