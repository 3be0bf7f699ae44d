/**
 * The newest records of one kind by arrival time, oldest first, at most `cap`, found by id. The
 * event store keeps its view in two of these and rebuilds them from its file through the same
 * code, so a restart shows exactly what the window showed.
 */
interface Held<T> {
  readonly id: string;
  readonly at: number;
  value: T;
}

export class ArrivalWindow<T> {
  private readonly items: Held<T>[] = [];
  private readonly index = new Map<string, Held<T>>();

  constructor(private readonly cap: number) {}

  get size(): number {
    return this.items.length;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  get(id: string): T | undefined {
    return this.index.get(id)?.value;
  }

  /**
   * Replaces the value held for `id`, or adds it in arrival order and drops the oldest past the
   * cap (which is the new one itself when it is older than everything held: a late update of a
   * record already dropped does not bring it back).
   */
  put(id: string, at: number, value: T): void {
    const held = this.index.get(id);
    if (held) {
      held.value = value;
      return;
    }
    const item: Held<T> = { id, at, value };
    // Arrivals come in order: look from the newest end.
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.at > at) i--;
    this.items.splice(i, 0, item);
    this.index.set(id, item);
    if (this.items.length > this.cap) this.index.delete(this.items.shift()!.id);
  }

  /** Oldest first. */
  values(): T[] {
    return this.items.map((h) => h.value);
  }
}
