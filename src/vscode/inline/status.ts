/** The inline suggestions' status bar item: the deployment, on or off (its click), thinking, paused and why. */
import * as vscode from 'vscode';
import type { Pause } from '../../chat/inline/budget';
import type { Withheld } from '../../chat/inline/exclude';
import { Commands } from '../contributions';
import { plainLine } from '../plainText';
import { clockTime } from '../../text/format';

export type InlineState =
  | { kind: 'off' }
  | { kind: 'ready' }
  | { kind: 'thinking' }
  | { kind: 'paused'; pause: Pause }
  | { kind: 'withheld'; why: Withheld }
  | { kind: 'failed'; message: string };

const time = (at: number) => clockTime(at).slice(0, 5);

function pauseText(p: Pause): string {
  switch (p.reason) {
    case 'requests':
      return vscode.l10n.t('Paused until {0}: the hour\'s request budget is spent (aoaiWorkbench.inline.maxRequestsPerHour).', time(p.until));
    case 'tokens':
      return vscode.l10n.t('Paused until midnight: today\'s token budget is spent (aoaiWorkbench.inline.maxTokensPerDay).');
    default:
      return vscode.l10n.t('Paused until {0}: the service asked to wait (429).', time(p.until));
  }
}

function withheldText(why: Withheld): string {
  const texts: Record<Withheld, string> = {
    excluded: vscode.l10n.t('Nothing is sent for this file: aoaiWorkbench.inline.exclude matches it.'),
    gitignored: vscode.l10n.t('Nothing is sent for this file: git ignores it.'),
    untitled: vscode.l10n.t('Nothing is sent for untitled documents (aoaiWorkbench.inline.untitled).'),
    untrusted: vscode.l10n.t('Nothing is sent in Restricted Mode unless you allow this folder (click).'),
    notAFile: vscode.l10n.t('Nothing is sent for this editor: it is not a file.'),
  };
  return texts[why];
}

export class InlineStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('aoaiWorkbench.inline', vscode.StatusBarAlignment.Right, 101);

  constructor() {
    this.item.name = vscode.l10n.t('Azure OpenAI inline suggestions');
    this.item.command = Commands.toggleInline;
  }

  show(deployment: string, state: InlineState): void {
    const name = plainLine(deployment, 60);
    const icon = { off: '$(circle-slash)', ready: '$(sparkle)', thinking: '$(loading~spin)', paused: '$(debug-pause)', withheld: '$(eye-closed)', failed: '$(warning)' }[state.kind];
    this.item.text = `${icon} ${name}`;
    const lines = [vscode.l10n.t('Inline suggestions from {0}', name)];
    if (state.kind === 'off') lines.push(vscode.l10n.t('Off. Click to turn them on.'));
    else lines.push(vscode.l10n.t('On. Click to turn them off.'));
    if (state.kind === 'thinking') lines.push(vscode.l10n.t('Asking the deployment…'));
    if (state.kind === 'paused') lines.push(pauseText(state.pause));
    if (state.kind === 'withheld') lines.push(withheldText(state.why));
    // The service's words: as text.
    if (state.kind === 'failed') lines.push(plainLine(state.message, 300));
    this.item.tooltip = lines.join('\n');
    this.item.backgroundColor = state.kind === 'paused' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  /** The tooltip, for the host tests to read what the user reads. */
  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
