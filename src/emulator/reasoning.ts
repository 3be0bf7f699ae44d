/**
 * Reasoning tokens a reasoning model spends per effort, on both APIs (Chat Completions'
 * `reasoning_effort`, Responses' `reasoning.effort`; medium when not given): deterministic, so
 * tests can count on them. The service bills them as output, within the output token limit.
 */
export const REASONING_TOKENS = { minimal: 0, low: 64, medium: 192, high: 640 } as const;

export type ReasoningEffort = keyof typeof REASONING_TOKENS;

export const isReasoningEffort = (v: unknown): v is ReasoningEffort => typeof v === 'string' && Object.hasOwn(REASONING_TOKENS, v);
