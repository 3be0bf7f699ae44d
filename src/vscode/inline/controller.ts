/**
 * Inline suggestions in the editor: the one owner of their state (the deployment, on or off,
 * thinking, paused, withheld), shown by the status bar item. The provider is registered for every
 * language only while a deployment is chosen and suggestions are on. Each call waits the debounce
 * (a cached rest shows at once), and VS Code's cancellation of a call (the next keystroke) aborts
 * its request. Documents that must not leave (exclude.ts) send nothing, and are not used as open
 * tabs' context either; only open documents are read.
 */
import * as vscode from 'vscode';
import { InlineBudget } from '../../chat/inline/budget';
import { afterDebounce, InlineEngine, type InlineOutcome, type InlineTarget } from '../../chat/inline/engine';
import { GitIgnoredFiles, withheld, type DocumentFacts, type ExclusionRules } from '../../chat/inline/exclude';
import type { InlineContext, OpenTab } from '../../chat/inline/prompt';
import type { InlineHost } from './host';
import { InlineStatus, type InlineState } from './status';

/** The budget's state, kept across reloads (a reload must not hand out a new hour's requests). */
const BUDGET_STATE = 'inline.budget';
/** How long a block's first lines wait for the rest before they are shown alone. */
const WHOLE_GRACE_MS = 120;
/** Open tabs sent for context, at most. */
const MAX_TABS = 4;
export const UNTRUSTED_ALLOWED = 'inline.untrustedFoldersAllowed';

export class InlineController implements vscode.Disposable {
  readonly engine: InlineEngine;
  readonly status = new InlineStatus();
  private readonly budget: InlineBudget;
  private readonly git = new GitIgnoredFiles();
  private readonly subs: vscode.Disposable[];
  private registration: vscode.Disposable | undefined;
  private target: { key: string; value: Promise<InlineTarget | undefined> } | undefined;
  private inFlight = 0;
  private state: InlineState = { kind: 'ready' };
  private readonly changed = new vscode.EventEmitter<InlineState>();
  /** The state changed (the status bar follows it; tests wait for it). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly host: InlineHost) {
    this.budget = new InlineBudget(this.limits());
    this.budget.restore(host.globalState.get(BUDGET_STATE));
    this.engine = new InlineEngine({ run: host.runChat, budget: this.budget, onReport: (r) => host.report(r) });
    this.subs = [
      this.status,
      this.changed,
      host.onDidChangeSettings(['inline.connection', 'inline.deployment', 'inline.enabled'], () => this.apply()),
      host.onDidChangeSettings(['inline.maxRequestsPerHour', 'inline.maxTokensPerDay'], () => (this.budget.limits = this.limits())),
      vscode.window.onDidChangeActiveTextEditor(() => this.state.kind === 'withheld' && this.set({ kind: 'ready' })),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.set({ kind: 'ready' })),
    ];
    this.apply();
  }

  private limits() {
    return { requestsPerHour: this.host.setting('inline.maxRequestsPerHour'), tokensPerDay: this.host.setting('inline.maxTokensPerDay') };
  }

  get deployment(): string {
    return this.host.setting('inline.deployment');
  }

  get on(): boolean {
    return !!this.deployment && this.host.setting('inline.enabled');
  }

  /** Follows the settings: the provider is registered while a deployment is chosen and suggestions are on. */
  private apply(): void {
    this.target = undefined;
    this.engine.cache.clear();
    if (this.on && !this.registration) {
      this.registration = vscode.languages.registerInlineCompletionItemProvider({ pattern: '**' }, { provideInlineCompletionItems: (d, p, _c, t) => this.provide(d, p, t) });
    } else if (!this.on) {
      this.registration?.dispose();
      this.registration = undefined;
    }
    this.set(this.on ? { kind: 'ready' } : { kind: 'off' });
  }

  private set(state: InlineState): void {
    this.state = state;
    if (this.deployment) this.status.show(this.deployment, this.on ? state : { kind: 'off' });
    this.changed.fire(state);
  }

  private resolveTarget(): Promise<InlineTarget | undefined> {
    const key = `${this.host.setting('inline.connection')}/${this.deployment}`;
    if (this.target?.key !== key) this.target = { key, value: this.host.target(this.host.setting('inline.connection'), this.deployment) };
    return this.target.value;
  }

  /** Whether this document's folder is trusted, or the user allowed suggestions in it. */
  trusted(uri: vscode.Uri): boolean {
    if (vscode.workspace.isTrusted) return true;
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() ?? '';
    return this.host.globalState.get<string[]>(UNTRUSTED_ALLOWED, []).includes(folder);
  }

  private why(doc: vscode.TextDocument) {
    const facts: DocumentFacts = { scheme: doc.uri.scheme, relativePath: vscode.workspace.asRelativePath(doc.uri, false) };
    if (!doc.isUntitled) facts.fsPath = doc.uri.fsPath;
    const rules: ExclusionRules = { patterns: this.host.setting('inline.exclude'), allowUntitled: this.host.setting('inline.untitled'), trusted: this.trusted(doc.uri) };
    return withheld(facts, rules, this.git);
  }

  /** The first lines of a few open tabs that may be sent, most recent group first. */
  private async tabs(current: vscode.TextDocument): Promise<OpenTab[]> {
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    const out: OpenTab[] = [];
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
      const doc = uri && open.get(uri.toString());
      if (!doc || doc === current || out.length >= MAX_TABS || (await this.why(doc))) continue;
      out.push({ path: vscode.workspace.asRelativePath(doc.uri, false), text: doc.getText(new vscode.Range(0, 0, 60, 0)) });
    }
    return out;
  }

  private async provide(doc: vscode.TextDocument, pos: vscode.Position, token: vscode.CancellationToken): Promise<vscode.InlineCompletionItem[] | undefined> {
    const why = await this.why(doc);
    if (why) {
      this.set({ kind: 'withheld', why });
      return undefined;
    }
    const target = await this.resolveTarget();
    if (!target || token.isCancellationRequested) return undefined;
    const ctx: InlineContext = {
      prefix: doc.getText(new vscode.Range(new vscode.Position(0, 0), pos)),
      suffix: doc.getText(new vscode.Range(pos, doc.lineAt(doc.lineCount - 1).range.end)),
      languageId: doc.languageId,
      path: vscode.workspace.asRelativePath(doc.uri, false),
    };
    const item = (text: string) => (text ? [new vscode.InlineCompletionItem(text, new vscode.Range(pos, pos))] : undefined);
    const hit = this.engine.cached(ctx, target);
    if (hit !== undefined) return item(hit);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    if (!(await afterDebounce(this.host.setting('inline.debounceMs'), abort.signal)) || token.isCancellationRequested) {
      cancel.dispose();
      return undefined;
    }
    ctx.tabs = await this.tabs(doc);
    this.busy(+1);
    // A block's first complete lines are shown while a slow rest streams in (the whole is cached for
    // the next call); an answer that is all there a moment later is shown whole.
    let early!: (text: string) => void;
    const firstLines = new Promise<string>((resolve) => (early = resolve)).then((text) => new Promise<string>((r) => setTimeout(r, WHOLE_GRACE_MS, text)));
    const whole = this.engine.suggest(ctx, target, abort.signal, early).finally(() => {
      cancel.dispose();
      this.busy(-1);
      void this.host.globalState.update(BUDGET_STATE, this.budget.snapshot());
    });
    const out = await Promise.race([whole, firstLines.then((text): InlineOutcome => ({ kind: 'suggestion', text, cached: false }))]);
    if (out.kind === 'paused') this.set({ kind: 'paused', pause: out.pause });
    else if (out.kind === 'failed') {
      const message = out.error instanceof Error ? out.error.message : String(out.error);
      this.host.logError(`Inline suggestion from ${target.deployment}: ${message}`);
      this.set({ kind: 'failed', message });
    } else if (out.kind === 'suggestion') {
      if (this.state.kind !== 'ready' && this.state.kind !== 'thinking') this.set({ kind: 'ready' });
      return item(out.text);
    }
    return undefined;
  }

  /** A request is in flight. */
  get thinking(): boolean {
    return this.inFlight > 0;
  }

  private busy(delta: number): void {
    this.inFlight += delta;
    const thinking = this.inFlight > 0;
    if (thinking && this.state.kind === 'ready') this.set({ kind: 'thinking' });
    else if (!thinking && this.state.kind === 'thinking') this.set({ kind: 'ready' });
  }

  dispose(): void {
    this.registration?.dispose();
    this.subs.forEach((d) => d.dispose());
  }
}
