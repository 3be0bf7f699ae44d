/**
 * Renders a streaming reply. Text is appended as it arrives; the DOM is updated at most once per
 * animation frame, and only the unfinished tail is re-rendered: finished blocks are rendered once.
 */
import { endsInOpenFence, stableBoundary, type Renderer } from './markdown';

export class StreamView {
  private text = '';
  private stableEnd = 0;
  private readonly stable: HTMLElement;
  private readonly tail: HTMLElement;
  private frame = 0;

  constructor(
    readonly element: HTMLElement,
    private readonly renderer: Renderer,
    private readonly schedule: (cb: () => void) => number = (cb) => requestAnimationFrame(cb),
  ) {
    this.stable = document.createElement('div');
    this.tail = document.createElement('div');
    element.replaceChildren(this.stable, this.tail);
  }

  get content(): string {
    return this.text;
  }

  append(delta: string): void {
    this.text += delta;
    if (!this.frame) this.frame = this.schedule(() => this.flush());
  }

  /** Renders what changed since the last frame. */
  flush(): void {
    this.frame = 0;
    const boundary = stableBoundary(this.text, this.stableEnd);
    if (boundary > this.stableEnd) {
      this.stable.insertAdjacentHTML('beforeend', this.renderer.render(this.text.slice(this.stableEnd, boundary)));
      this.stableEnd = boundary;
    }
    const tail = this.text.slice(this.stableEnd);
    this.tail.innerHTML = tail ? this.renderer.render(tail, { highlight: !endsInOpenFence(tail) }) : '';
  }

  /** The final render: everything, once, highlighted (the reply is complete). */
  finish(): void {
    this.frame = 0;
    this.element.innerHTML = this.renderer.render(this.text);
  }
}
