/**
 * The `modelOptions` a consumer passes with a request (VS Code's chat, another extension): read in
 * either spelling (`max_tokens` / `maxTokens`), checked, and refused with a message that says which
 * value is wrong and what it may be.
 */

import * as l10n from '@vscode/l10n';
import type { ReasoningEffort, SamplingOptions } from '../engine/chatRequest';

/** The runner's sampling options, as a consumer may pass them. */
export type LmModelOptions = SamplingOptions;

export class ModelOptionError extends Error {
  override readonly name = 'ModelOptionError';
}

const EFFORTS: readonly ReasoningEffort[] = ['minimal', 'low', 'medium', 'high'];

function pick(options: Readonly<Record<string, unknown>>, ...names: string[]): [string, unknown] | undefined {
  for (const n of names) if (options[n] !== undefined && options[n] !== null) return [n, options[n]];
  return undefined;
}

function numberIn(entry: [string, unknown] | undefined, min: number, max: number, integer = false): number | undefined {
  if (!entry) return undefined;
  const [name, v] = entry;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    const shown = JSON.stringify(v);
    throw new ModelOptionError(
      integer
        ? l10n.t('The model option "{0}" is {1}: it must be a whole number from {2} to {3}.', name, shown, min, max)
        : l10n.t('The model option "{0}" is {1}: it must be a number from {2} to {3}.', name, shown, min, max),
    );
  }
  return v;
}

export function readModelOptions(options: Readonly<Record<string, unknown>> | undefined): LmModelOptions {
  const o = options ?? {};
  const out: LmModelOptions = {};
  const temperature = numberIn(pick(o, 'temperature'), 0, 2);
  if (temperature !== undefined) out.temperature = temperature;
  const topP = numberIn(pick(o, 'top_p', 'topP'), 0, 1);
  if (topP !== undefined) out.topP = topP;
  const maxTokens = numberIn(pick(o, 'max_tokens', 'maxTokens', 'max_completion_tokens', 'maxOutputTokens'), 1, 1_000_000, true);
  if (maxTokens !== undefined) out.maxTokens = maxTokens;
  const effort = pick(o, 'reasoning_effort', 'reasoningEffort');
  if (effort) {
    if (!EFFORTS.includes(effort[1] as ReasoningEffort)) {
      throw new ModelOptionError(l10n.t('The model option "{0}" is {1}: it must be one of {2}.', effort[0], JSON.stringify(effort[1]), EFFORTS.join(', ')));
    }
    out.reasoningEffort = effort[1] as ReasoningEffort;
  }
  return out;
}
