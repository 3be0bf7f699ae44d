/** Which user message the composer is editing (Enter sends the box in its place), with its banner. */
export class Editing {
  /** The user message being edited. */
  turnId: string | undefined;
  /** The text a failed request gave back (cleared again when the user retries instead). */
  restoredDraft: string | undefined;

  constructor(
    private readonly log: HTMLElement,
    private readonly banner: HTMLElement,
  ) {}

  start(turnId: string, banner: string): void {
    this.turnId = turnId;
    this.banner.textContent = banner;
    this.banner.hidden = false;
    this.log.querySelector('.turn.editing')?.classList.remove('editing');
    this.log.querySelector(`[data-turn-id="${CSS.escape(turnId)}"]`)?.classList.add('editing');
  }

  stop(): void {
    this.turnId = undefined;
    this.restoredDraft = undefined;
    this.banner.hidden = true;
    this.log.querySelector('.turn.editing')?.classList.remove('editing');
  }
}
