/**
 * "Generating… 4 s · about 120 tokens" under a reply while it streams: elapsed time each second,
 * tokens counted locally from the text so far (the service's figures come at the end).
 */
import * as l10n from '@vscode/l10n';
import type { BackgroundStatus } from '../../chat/model';
import { tokensForLength } from '../../chat/tokenEstimate';

/** A background reply's status line: it runs on the service, whatever the panel does. */
export function backgroundText(status: BackgroundStatus, seconds: number): string {
  const words: Record<BackgroundStatus, string> = {
    queued: l10n.t('queued'),
    in_progress: l10n.t('in progress'),
    completed: l10n.t('completed'),
    failed: l10n.t('failed'),
    cancelled: l10n.t('cancelled'),
    incomplete: l10n.t('incomplete'),
  };
  return l10n.t('Background reply {0} for {1} s. It goes on if you close the panel; Stop cancels it.', words[status], seconds);
}

export class ReplyProgress {
  private length = 0;
  private frame = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly foot: HTMLElement,
    private readonly startedAt = Date.now(),
  ) {
    this.render();
    this.timer = setInterval(() => this.render(), 1000);
  }

  /** Called with each piece of the reply; shown at the next frame (one write per frame at most). */
  add(text: string): void {
    this.length += text.length;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  render(): void {
    this.frame = 0;
    const seconds = Math.max(0, Math.floor((Date.now() - this.startedAt) / 1000));
    const tokens = tokensForLength(this.length);
    this.foot.textContent = tokens ? l10n.t('Generating… {0} s · about {1} tokens', seconds, tokens) : l10n.t('Generating… {0} s', seconds);
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}
