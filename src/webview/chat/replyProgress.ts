/**
 * "Generating… 4 s · about 120 tokens" under a reply while it streams: elapsed time each second,
 * tokens counted locally from the text so far (the service's figures come at the end).
 */
import { tokensForLength } from '../../chat/tokenEstimate';

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
    this.foot.textContent = `Generating… ${seconds} s${tokens ? ` · about ${tokens} tokens` : ''}`;
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}
