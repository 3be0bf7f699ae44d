/** Types of scripts/test/timings.mjs, for its test. */
export function duration(ms: number): string;
export function timingSummary(
  stages: Array<{ name: string; ms: number; status?: string }>,
  tests: Array<{ title: string; ms: number; where: string }>,
  count?: number,
): string;
