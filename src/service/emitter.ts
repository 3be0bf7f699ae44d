/**
 * A typed change event for the core, shaped like VS Code's `Event<T>` (a function that takes a
 * listener and returns something to dispose), so the VS Code layer subscribes to core owners
 * directly and the core still imports no `vscode`. It lives at the bottom of the core because
 * owners in several folders fire one: listening and the received events (`webhooks/`) and the
 * deployment catalog (here); `text/` holds text only.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => unknown>();

  readonly event: Event<T> = (listener) => {
    // A wrapper of its own: the same function subscribed twice is called twice, and each disposes alone.
    const own = (e: T) => listener(e);
    this.listeners.add(own);
    return { dispose: () => void this.listeners.delete(own) };
  };

  /** Tells every listener; one that throws does not keep the others from hearing. */
  fire(e: T): void {
    // Nobody listening (a trace kept before Show Trace was opened): no copy of the set.
    if (!this.listeners.size) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch {
        /* a listener's own failure is its own */
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
