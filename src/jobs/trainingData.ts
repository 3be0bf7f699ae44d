/**
 * Checks fine-tuning data before upload: every line a chat example (`messages` with known roles
 * and an assistant turn to learn from) or a preference pair (`input` with `preferred_output` and
 * `non_preferred_output`), and enough of them. Streamed: nothing is held but the counts.
 */
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
  if (!Array.isArray(messages) || messages.length === 0) return 'it has no "messages" list';
  for (const [i, m] of messages.entries()) {
    if (typeof m !== 'object' || m === null) return `messages[${i}] is not an object`;
    const msg = m as Record<string, unknown>;
    if (typeof msg.role !== 'string' || !ROLES.has(msg.role)) return `messages[${i}] has no valid "role" (system, user, assistant, tool)`;
    const calls = Array.isArray(msg.tool_calls) || (msg.function_call !== undefined && msg.function_call !== null);
    if (!calls && typeof msg.content !== 'string' && !Array.isArray(msg.content)) return `messages[${i}] has no "content"`;
    if (msg.weight !== undefined && msg.weight !== 0 && msg.weight !== 1) return `messages[${i}] has a "weight" other than 0 or 1`;
  }
  if (needAssistant && !messages.some((m) => (m as { role?: unknown }).role === 'assistant')) return 'it has no assistant message to learn from';
  return undefined;
}

function exampleProblem(value: Record<string, unknown>): string | undefined {
  if ('messages' in value) return messagesProblem(value.messages);
  if ('input' in value || 'preferred_output' in value) {
    const input = value.input as { messages?: unknown } | undefined;
    const inputProblem = messagesProblem(input?.messages, false);
    if (inputProblem) return `its "input" is not a conversation (${inputProblem})`;
    for (const k of ['preferred_output', 'non_preferred_output']) {
      if (!Array.isArray(value[k]) || (value[k] as unknown[]).length === 0) return `it has no "${k}" list (a preference example needs both outputs)`;
    }
    return undefined;
  }
  return 'it is not a chat example: expected {"messages": [{"role": "user", …}, {"role": "assistant", …}]}';
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
      if ('problem' in parsed) return problems.add(number, `it ${parsed.problem}`);
      const problem = exampleProblem(parsed.value);
      if (problem) problems.add(number, problem);
    },
    { signal: options.signal },
  );
  const min = options.minExamples ?? MIN_TRAINING_EXAMPLES;
  if (examples < min) problems.add(0, `it has ${examples} example${examples === 1 ? '' : 's'}; fine-tuning needs at least ${min}`);
  return { examples, problems: problems.list, problemCount: problems.count };
}
