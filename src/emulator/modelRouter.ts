/**
 * A model-router deployment answers from one of its underlying models, and the answer's `model`
 * names the one that did. The emulator's rule is deterministic, so tests and demos can count on
 * it: a prompt under 1,000 tokens goes to gpt-4.1-nano, a longer one to gpt-4.1-mini (both
 * 2025-04-14). Any other deployment answers as its own model at its version.
 */
import type { DeploymentConfig } from './config';

export const ROUTER_SHORT_MODEL = 'gpt-4.1-nano-2025-04-14';
export const ROUTER_LONG_MODEL = 'gpt-4.1-mini-2025-04-14';
export const ROUTER_THRESHOLD_TOKENS = 1000;

export const isModelRouter = (d: Pick<DeploymentConfig, 'model'>) => d.model.toLowerCase() === 'model-router';

/** The `model` of the answer to a prompt of `promptTokens` tokens. */
export function answeringModel(d: Pick<DeploymentConfig, 'model' | 'version'>, promptTokens: number): string {
  if (isModelRouter(d)) return promptTokens < ROUTER_THRESHOLD_TOKENS ? ROUTER_SHORT_MODEL : ROUTER_LONG_MODEL;
  return `${d.model}-${d.version}`;
}
