/**
 * A reply in flight survives a window reload or a crash of the extension host: the panel saves it
 * as it streams (marked `streaming`, at most once a second), and a conversation loaded with such
 * a turn gets it marked `interrupted`, what arrived kept, for the user to regenerate.
 */
import type { ChatTurn } from './model';

/** How often a streaming reply is saved at most. */
export const DRAFT_SAVE_MS = 1000;

/** A reply that was still streaming when its window went away: no run of this window is behind it. */
function wasCutOff(t: ChatTurn): boolean {
  // A background reply is followed again by its id instead (see backgroundReplies.ts).
  return t.role === 'assistant' && t.streaming === true && !t.backgroundStatus;
}

/** Marks the replies a reload or a crash cut off; true when any was (the conversation should be saved). */
export function markInterrupted(c: { turns: ChatTurn[] }): boolean {
  let changed = false;
  for (const t of c.turns) {
    if (!wasCutOff(t)) continue;
    delete t.streaming;
    t.interrupted = true;
    changed = true;
  }
  return changed;
}

/**
 * Saves at most once per `intervalMs` while something keeps changing: the first change schedules
 * a save, the changes until then ride along. `settle` cancels what is scheduled and waits for a
 * save under way, so the caller's final save is the last one written.
 */
export class ThrottledSave {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly intervalMs = DRAFT_SAVE_MS,
  ) {}

  /** Something changed: saved within `intervalMs`. */
  touch(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A save's failure is the final save's to report; a draft is best effort.
      this.running = this.save().catch(() => undefined);
    }, this.intervalMs);
  }

  async settle(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
