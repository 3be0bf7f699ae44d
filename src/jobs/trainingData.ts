/**
 * Checks fine-tuning data before upload: every line a chat example (`messages` with known roles
 * and an assistant turn to learn from) or a preference pair (`input` with `preferred_output` and
 * `non_preferred_output`), and enough of them. Streamed: nothing is held but the counts.
 */
import * as l10n from '@vscode/l10n';
import { eachLine, isBlank, parseObject } from './lines';
import { Problems, type LineProblem } from './problems';

/** The service trains on at least 10 examples. */
export const MIN_TRAINING_EXAMPLES = 10;

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

export interface TrainingDataCheck {
  examples: number;
  problems: LineProblem[];
  problemCount: number;
}

/** Why `messages` cannot be learned from, or undefined when it can. */
export function messagesProblem(messages: unknown, needAssistant = true): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return l10n.t('it has no "{0}" list', 'messages');
  for (const [i, m] of messages.entries()) {
    if (typeof m !== 'object' || m === null) return l10n.t('{0} is not an object', `messages[${i}]`);
    const msg = m as Record<string, unknown>;
    if (typeof msg.role !== 'string' || !ROLES.has(msg.role)) return l10n.t('{0} has no valid "{1}" ({2})', `messages[${i}]`, 'role', 'system, user, assistant, tool');
    const calls = Array.isArray(msg.tool_calls) || (msg.function_call !== undefined && msg.function_call !== null);
    if (!calls && typeof msg.content !== 'string' && !Array.isArray(msg.content)) return l10n.t('{0} has no "{1}"', `messages[${i}]`, 'content');
    if (msg.weight !== undefined && msg.weight !== 0 && msg.weight !== 1) return l10n.t('{0} has a "{1}" other than 0 or 1', `messages[${i}]`, 'weight');
  }
  if (needAssistant && !messages.some((m) => (m as { role?: unknown }).role === 'assistant')) return l10n.t('it has no assistant message to learn from');
  return undefined;
}

function exampleProblem(value: Record<string, unknown>): string | undefined {
  if ('messages' in value) return messagesProblem(value.messages);
  if ('input' in value || 'preferred_output' in value) {
    const input = value.input as { messages?: unknown } | undefined;
    const inputProblem = messagesProblem(input?.messages, false);
    if (inputProblem) return l10n.t('its "{0}" is not a conversation ({1})', 'input', inputProblem);
    for (const k of ['preferred_output', 'non_preferred_output']) {
      if (!Array.isArray(value[k]) || (value[k] as unknown[]).length === 0) return l10n.t('it has no "{0}" list (a preference example needs both outputs)', k);
    }
    return undefined;
  }
  return l10n.t('it is not a chat example: expected {0}', '{"messages": [{"role": "user", …}, {"role": "assistant", …}]}');
}

export async function checkTrainingData(path: string, options: { minExamples?: number; signal?: AbortSignal } = {}): Promise<TrainingDataCheck> {
  const problems = new Problems();
  let examples = 0;
  await eachLine(
    path,
    ({ bytes, number }) => {
      // Fine-tuning files may start with a BOM (the service's own guidance asks for one).
      if (number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      if (isBlank(bytes)) return;
      examples++;
      const parsed = parseObject(bytes);
      if ('problem' in parsed) return problems.add(number, parsed.problem);
      const problem = exampleProblem(parsed.value);
      if (problem) problems.add(number, problem);
    },
    { signal: options.signal },
  );
  const min = options.minExamples ?? MIN_TRAINING_EXAMPLES;
  if (examples < min) problems.add(0, examples === 1 ? l10n.t('it has 1 example; fine-tuning needs at least {0}', min) : l10n.t('it has {0} examples; fine-tuning needs at least {1}', examples, min));
  return { examples, problems: problems.list, problemCount: problems.count };
}
