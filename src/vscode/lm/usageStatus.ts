/**
 * What language model requests cost: each request's tokens to the log, and a running total per
 * deployment in a status bar item's tooltip (shown once the first request is done).
 */
import * as vscode from 'vscode';
import type { Usage } from '../../service/types';
import { Commands } from '../contributions';
import { logInfo } from '../log';

export interface UsageTotal {
  /** The model's name as the picker shows it: deployment (connection). */
  name: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

const compact = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : n.toLocaleString('en'));

export class UsageStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('aoaiWorkbench.languageModelUsage', vscode.StatusBarAlignment.Right, 100);
  private readonly totals = new Map<string, UsageTotal>();

  constructor() {
    this.item.name = 'Azure OpenAI token usage';
    this.item.command = Commands.showLog;
  }

  /** Records a finished (or stopped) request; a request without usage counts as a request. */
  record(modelId: string, name: string, usage: Usage | undefined, detail: string): void {
    const total = this.totals.get(modelId) ?? { name, requests: 0, promptTokens: 0, completionTokens: 0 };
    total.requests++;
    total.promptTokens += usage?.prompt_tokens ?? 0;
    total.completionTokens += usage?.completion_tokens ?? 0;
    this.totals.set(modelId, total);
    const tokens = usage ? `${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion = ${usage.total_tokens} tokens` : 'no usage reported';
    logInfo(`Language model request to ${name}: ${tokens}; ${detail}.`);
    this.render();
  }

  /** Totals since the window opened, per model id. */
  snapshot(): UsageTotal[] {
    return [...this.totals.values()].map((t) => ({ ...t }));
  }

  private render(): void {
    const all = [...this.totals.values()];
    const sum = all.reduce((n, t) => n + t.promptTokens + t.completionTokens, 0);
    this.item.text = `$(pulse) ${compact(sum)}`;
    const rows = all.map((t) => `| ${escape(t.name)} | ${t.requests} | ${t.promptTokens.toLocaleString('en')} | ${t.completionTokens.toLocaleString('en')} |`);
    const md = new vscode.MarkdownString(
      ['**Azure OpenAI tokens used through VS Code chat** (this window)', '', '| Deployment | Requests | Prompt | Completion |', '|---|--:|--:|--:|', ...rows, '', 'Click for the log.'].join('\n'),
    );
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: `Azure OpenAI: ${sum.toLocaleString('en')} tokens used through VS Code chat in this window` };
    this.item.show();
  }

  /** The status bar item's text, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** The tooltip's Markdown, for tests. */
  get tooltip(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** Deployment and connection names are the user's own, but still not Markdown. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
