/**
 * What fine-tuning accepts: the base models (with their versions) and methods, and the training
 * data, checked when the job starts: every line an example of the job's method, at least 10.
 */
import { countTokens } from '../responder';
import type { EmulatorState } from '../state';
import { jsonLines, type LineProblem } from './files';
import type { Method } from '../stored';

export type { Method };

const SFT_DPO = ['gpt-4o-2024-08-06', 'gpt-4.1-2025-04-14', 'gpt-4.1-mini-2025-04-14', 'gpt-4.1-nano-2025-04-14'];
const SFT_ONLY = ['gpt-4o-mini-2024-07-18', 'Ministral-3B', 'Qwen-32B', 'Llama-3.3-70B-Instruct', 'gpt-oss-20b'];
const RFT = ['o4-mini-2025-04-16', 'gpt-5-2025-08-07'];
export const TUNABLE_MODELS = [...SFT_DPO, ...SFT_ONLY, ...RFT];
export const MIN_EXAMPLES = 10;

/** The methods a model takes, or undefined when it cannot be fine-tuned (a fine-tuned model takes its base's). */
export function methodsOf(state: EmulatorState, model: string): Method[] | undefined {
  const tuned = [...state.fineTuning.values()].map((s) => s.job).find((j) => j.fine_tuned_model === model && j.status === 'succeeded');
  const base = tuned ? tuned.model : model;
  if (SFT_DPO.includes(base)) return ['supervised', 'dpo'];
  if (SFT_ONLY.includes(base)) return ['supervised'];
  if (RFT.includes(base)) return ['reinforcement'];
  return tuned ? methodsOf(state, base) : undefined;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** Why `messages` is not a chat conversation the trainer can learn from, or undefined when it is. */
function badMessages(messages: unknown, needAssistant: boolean): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return "it has no 'messages' list";
  for (const [i, m] of messages.entries()) {
    const msg = (m ?? {}) as Record<string, unknown>;
    if (typeof msg.role !== 'string' || !ROLES.has(msg.role)) return `messages[${i}] has no valid 'role' (system, user, assistant, tool)`;
    const hasCall = Array.isArray(msg.tool_calls) || (msg.function_call !== undefined && msg.function_call !== null);
    if (!hasCall && typeof msg.content !== 'string' && !Array.isArray(msg.content)) return `messages[${i}] has no 'content'`;
    if (msg.weight !== undefined && msg.weight !== 0 && msg.weight !== 1) return `messages[${i}] has a 'weight' other than 0 or 1`;
  }
  if (needAssistant && !messages.some((m) => (m as { role?: unknown })?.role === 'assistant')) return 'it has no assistant message to learn from';
  return undefined;
}

function badExample(value: Record<string, unknown>, method: Method): string | undefined {
  if (method === 'dpo') {
    const input = (value.input ?? {}) as Record<string, unknown>;
    const why = badMessages(input.messages, false);
    if (why) return `its 'input' is not a conversation: ${why}`;
    if (!Array.isArray(value.preferred_output) || !Array.isArray(value.non_preferred_output)) return "a preference example needs 'preferred_output' and 'non_preferred_output' lists";
    return undefined;
  }
  const why = badMessages(value.messages, method === 'supervised');
  return why ? `it is not a chat example: ${why}` : undefined;
}

/** The examples' tokens (what one epoch trains on), or the first line that is not an example. */
export function checkTrainingData(data: Buffer, method: Method, what: string): { examples: number; tokens: number } | { problem: LineProblem } {
  const parsed = jsonLines(data);
  if ('problem' in parsed) return { problem: { line: parsed.problem.line, message: `The ${what} is not valid JSONL: ${parsed.problem.message}` } };
  let tokens = 0;
  for (const { line, value } of parsed.lines) {
    const why = badExample(value, method);
    if (why) return { problem: { line, message: `The ${what} has an invalid example on line ${line}: ${why}.` } };
    tokens += countTokens(JSON.stringify(value));
  }
  if (parsed.lines.length < MIN_EXAMPLES) {
    return { problem: { line: 0, message: `The ${what} has ${parsed.lines.length} examples; fine-tuning needs at least ${MIN_EXAMPLES}.` } };
  }
  return { examples: parsed.lines.length, tokens };
}
