/**
 * The Get Started walkthrough: the context keys its steps wait for (what no command marks: a
 * connection exists, a reply arrived, a webhooks debug session started), and its opening once
 * after install, the first time the user opens the Azure OpenAI sidebar with no connection yet.
 */
import * as vscode from 'vscode';
import type { RequestReport } from '../chat/engine/report';
import { DEBUG_TYPE } from '../webhooks/session/debugConfig';
import { ContextKeys, WALKTHROUGH_FULL_ID, type ContextKey } from './contributions';
import type { ConnectionStore } from './connections/connectionStore';
import { commandsStarted } from './commands/registry';
import { setContext } from './settings';

/** Set in global state once the walkthrough was opened for the user: never again after that. */
export const WALKTHROUGH_SHOWN_KEY = 'walkthrough.shown';
/** How long the sidebar is shown with no command of ours started before the walkthrough opens. */
const QUIET_MS = 1500;

/** Which walkthrough step a request's report completes: a reply in our panel, or in VS Code's chat. */
export function stepKeyOfReport(r: Pick<RequestReport, 'source' | 'outcome'>): ContextKey | undefined {
  if (r.outcome !== 'ok') return undefined;
  if (r.source === 'panel') return ContextKeys.chatReplied;
  if (r.source === 'vscode-chat') return ContextKeys.vscodeChatReplied;
  return undefined;
}

export class WalkthroughProgress implements vscode.Disposable {
  private readonly set = new Set<ContextKey>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly context: vscode.ExtensionContext,
    store: Pick<ConnectionStore, 'list' | 'onDidChange'>,
    sidebar: vscode.TreeView<unknown>,
  ) {
    const connections = () => void this.mark(ContextKeys.hasConnection, store.list().length > 0);
    connections();
    this.subs = [
      store.onDidChange(connections),
      vscode.debug.onDidStartDebugSession((d) => d.type === DEBUG_TYPE && void this.mark(ContextKeys.debuggedWebhooks, true)),
    ];
    this.openOnce(sidebar);
  }

  /** Hand every request's report here (beside the usage log): a reply completes a chat step. */
  readonly report = (r: RequestReport): void => {
    const key = stepKeyOfReport(r);
    if (key) void this.mark(key, true);
  };

  private async mark(key: ContextKey, value: boolean): Promise<void> {
    // Once set a key stays set: VS Code keeps the step checked anyway.
    if (value === this.set.has(key)) return;
    if (value) this.set.add(key);
    else this.set.delete(key);
    await setContext(key, value);
  }

  /**
   * Not at activation itself: a command's quick pick may be opening, and an editor taking the
   * focus would close it. The sidebar shown is a moment the user is looking around.
   */
  private openOnce(sidebar: vscode.TreeView<unknown>): void {
    const state = this.context.globalState;
    if (state.get(WALKTHROUGH_SHOWN_KEY)) return;
    // The user's own choice about walkthroughs of newly installed extensions.
    if (!vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true)) return;
    // A moment after the sidebar shows, and only if no command of ours started meanwhile: a click
    // on the welcome view's Add Connection may be what activated us, and the walkthrough's editor
    // would take the focus from its wizard.
    const open = () => {
      const timer = setTimeout(() => {
        // A user with a connection has got started without it (an imported .env, a window reloaded
        // mid-work): an editor opening over their work would be in the way.
        if (state.get(WALKTHROUGH_SHOWN_KEY) || commandsStarted() > 0 || this.set.has(ContextKeys.hasConnection)) return;
        void state.update(WALKTHROUGH_SHOWN_KEY, true);
        void vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_FULL_ID, false);
      }, QUIET_MS);
      this.subs.push({ dispose: () => clearTimeout(timer) });
    };
    if (sidebar.visible) open();
    else {
      const sub = sidebar.onDidChangeVisibility((e) => {
        if (!e.visible) return;
        sub.dispose();
        open();
      });
      this.subs.push(sub);
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
