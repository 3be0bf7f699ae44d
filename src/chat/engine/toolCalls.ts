/**
 * Folds streamed tool-call pieces (Chat Completions `delta.tool_calls`, keyed by `index`: the id
 * and name first, the JSON arguments in any number of pieces) into whole calls.
 */
import * as l10n from '@vscode/l10n';
import type { ChatToolCallDelta } from '../../service/types';

export interface CompletedToolCall {
  callId: string;
  name: string;
  input: object;
}

/** The model's arguments were not a JSON object: the call cannot be handed to a tool. */
export class ToolArgumentsError extends Error {
  override readonly name = 'ToolArgumentsError';
}

export class ToolCallAccumulator {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();

  add(deltas: readonly ChatToolCallDelta[] | undefined): void {
    for (const d of deltas ?? []) {
      let call = this.calls.get(d.index);
      if (!call) {
        call = { id: '', name: '', args: '' };
        this.calls.set(d.index, call);
      }
      if (d.id) call.id = d.id;
      if (d.function?.name) call.name += d.function.name;
      if (d.function?.arguments) call.args += d.function.arguments;
    }
  }

  /** The calls so far, in index order, with parsed arguments; the accumulator starts over. */
  take(): CompletedToolCall[] {
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b);
    this.calls.clear();
    return calls.map(([index, c]) => completeToolCall(index, c));
  }
}

/** A call whose pieces are all in (the `index`-th of its reply): arguments parsed and checked. */
export function completeToolCall(index: number, c: { id: string; name: string; args: string }): CompletedToolCall {
  if (!c.name) throw new ToolArgumentsError(l10n.t("The model's tool call #{0} has no tool name. Send the request again.", index + 1));
  let input: unknown;
  try {
    input = c.args.trim() ? JSON.parse(c.args) : {};
  } catch {
    throw new ToolArgumentsError(l10n.t('The model called the tool "{0}" with arguments that are not valid JSON ({1}…). Send the request again.', c.name, c.args.slice(0, 80)));
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new ToolArgumentsError(l10n.t('The model called the tool "{0}" with arguments that are not a JSON object. Send the request again.', c.name));
  }
  // A call without an id cannot be answered; give it one the next request will echo back.
  return { callId: c.id || `call_${index}`, name: c.name, input };
}
