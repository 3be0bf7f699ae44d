/** Time for jobs: each status step waits `jobs.stepMs`; timers end with the emulator. */
import type { EmulatorState } from '../state';

/** Resolves after `ms`; never, if the emulator closes first (the job just stops there). */
export function wait(state: EmulatorState, ms: number): Promise<void> {
  return new Promise((resolve) => state.later(Math.max(0, ms), resolve));
}

export const stepMs = (state: EmulatorState) => state.config.jobs.stepMs;
