/**
 * Keeps the conversation's end in view while a reply streams, unless the user scrolled up to
 * read: then it stays put and offers "Jump to latest" until the user is back at the end.
 */
import * as l10n from '@vscode/l10n';

/** Within this distance of the end the view counts as "at the end" (a line of slack). */
const AT_END_PX = 32;

export class FollowScroll {
  private following = true;
  private lastTop = 0;
  private scheduled = false;

  constructor(
    private readonly log: HTMLElement,
    private readonly jump: HTMLButtonElement,
    private readonly announce: (text: string) => void,
  ) {
    log.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // A narrower or wider panel reflows the text: stay at the end if following.
    new ResizeObserver(() => this.contentChanged()).observe(log);
    jump.addEventListener('click', () => {
      this.toEnd();
      // The button disappears: leave the keyboard somewhere useful.
      document.getElementById('input')?.focus();
    });
  }

  private distanceToEnd(): number {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight;
  }

  private onScroll(): void {
    const top = this.log.scrollTop;
    // Content growing never moves scrollTop up, so an upward move is the user's.
    if (this.distanceToEnd() <= AT_END_PX) this.following = true;
    else if (top < this.lastTop - 1) this.following = false;
    this.lastTop = top;
    this.updateButton();
  }

  private updateButton(): void {
    const show = !this.following && this.distanceToEnd() > AT_END_PX;
    if (show === !this.jump.hidden) return;
    this.jump.hidden = !show;
    if (show) this.announce(l10n.t('Newer messages below. Jump to latest to follow the reply.'));
  }

  /** Scrolls to the end and follows from now on (sending, pressing Jump to latest). */
  toEnd(): void {
    this.following = true;
    this.log.scrollTop = this.log.scrollHeight;
    this.lastTop = this.log.scrollTop;
    this.updateButton();
  }

  /** After content was added: follow it if following, else offer the button. */
  contentChanged(): void {
    if (this.following) {
      this.log.scrollTop = this.log.scrollHeight;
      this.lastTop = this.log.scrollTop;
    }
    this.updateButton();
  }

  /** At most once per frame while a reply streams (each call reads layout). */
  contentChangedNextFrame(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.contentChanged();
    });
  }
}
