/**
 * A batch's life: validating → in_progress → finalizing → completed (or failed, expired,
 * cancelling → cancelled), each step `jobs.stepMs` long. Every line is answered by the code of the
 * live route (tools, images, reasoning, content filtering alike; rate limits aside); answers other
 * than 2xx go to the error file. Each final state emits its `batch.*` webhook event.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorState } from '../state';
import { chatCompletionBody, prepareChat } from '../routes/chat';
import { answerResponseLine } from '../routes/responses';
import { HttpError, invalidRequest, nowSeconds, randomId } from '../wire';
import { validateBatchInput, type BatchError, type BatchLine } from './batchLines';
import type { BatchStatus, BatchObject } from '../stored';

export type { BatchStatus, BatchObject };

export const BATCH_FINAL: ReadonlySet<BatchStatus> = new Set(['failed', 'completed', 'expired', 'cancelled']);

export function newBatch(inputFileId: string, endpoint: string, window: string, metadata: Record<string, string> | null): BatchObject {
  const now = nowSeconds();
  return {
    id: `batch_${randomUUID()}`,
    object: 'batch',
    endpoint,
    // `model` comes with validation (the deployment the lines name): until then the batch has none.
    errors: null,
    input_file_id: inputFileId,
    completion_window: window,
    status: 'validating',
    output_file_id: null,
    error_file_id: null,
    created_at: now,
    in_progress_at: null,
    expires_at: now + 24 * 3600,
    finalizing_at: null,
    completed_at: null,
    failed_at: null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    request_counts: { total: 0, completed: 0, failed: 0 },
    usage: { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 },
    metadata,
  };
}

interface LineResult {
  ok: boolean;
  json: string;
}

/** One line through the live route's code: `{id, custom_id, response: {status_code, request_id, body}, error}`. */
async function answerLine(state: EmulatorState, batch: BatchObject, line: BatchLine): Promise<LineResult> {
  const out = (status: number, body: unknown) =>
    JSON.stringify({ id: randomId('batch_req_', 16), custom_id: line.customId, response: { status_code: status, request_id: randomUUID(), body }, error: null });
  try {
    let body: Record<string, unknown>;
    if (line.api === 'chat') {
      if (line.body.stream === true) throw invalidRequest('A batch line cannot ask for a streamed answer.', 'stream', 'invalid_value');
      body = chatCompletionBody(prepareChat({ state }, line.body, undefined, true));
      const u = body.usage as { prompt_tokens: number; completion_tokens: number; completion_tokens_details: { reasoning_tokens: number } };
      addUsage(batch, u.prompt_tokens, u.completion_tokens, u.completion_tokens_details.reasoning_tokens);
    } else {
      body = await answerResponseLine(state, line.body);
      const u = body.usage as { input_tokens: number; output_tokens: number; output_tokens_details: { reasoning_tokens: number } } | null;
      if (u) addUsage(batch, u.input_tokens, u.output_tokens, u.output_tokens_details.reasoning_tokens);
    }
    return { ok: true, json: out(200, body) };
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, json: out(err.status, err.body) };
    state.log(`batch ${batch.id} line ${line.line} failed in the emulator: ${(err as Error)?.stack ?? err}`);
    return { ok: false, json: errorLine(line, 'server_error', 'The request failed on the server.') };
  }
}

/** A line the service did not answer: no response, only why. */
const errorLine = (line: BatchLine, code: string, message: string) =>
  JSON.stringify({ id: randomId('batch_req_', 16), custom_id: line.customId, response: null, error: { code, message } });

function addUsage(batch: BatchObject, input: number, output: number, reasoning: number): void {
  batch.usage.input_tokens += input;
  batch.usage.output_tokens += output;
  batch.usage.output_tokens_details.reasoning_tokens += reasoning;
  batch.usage.total_tokens += input + output;
}

function end(state: EmulatorState, batch: BatchObject, status: 'failed' | 'completed' | 'expired' | 'cancelled'): void {
  batch.status = status;
  const at = `${status}_at` as const;
  batch[at] = nowSeconds();
  state.emit(`batch.${status}`, { id: batch.id });
}

function fail(state: EmulatorState, batch: BatchObject, errors: BatchError[]): void {
  batch.errors = { object: 'list', data: errors };
  end(state, batch, 'failed');
}

/** The output and error files: written even when empty (a completed batch's error file is 0 bytes). */
function writeFiles(state: EmulatorState, batch: BatchObject, output: string[], errors: string[]): void {
  const text = (lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));
  batch.output_file_id = state.files.add(`${batch.id}_output.jsonl`, 'batch_output', text(output), undefined, true).id;
  batch.error_file_id = state.files.add(`${batch.id}_error.jsonl`, 'batch_output', text(errors), undefined, true).id;
}

const cancelled = (batch: BatchObject) => batch.status === 'cancelling';

/** Runs a created batch to its final state (`metadata.emulate`: "fail" or "expire" decide the outcome). */
export async function runBatch(state: EmulatorState, batch: BatchObject): Promise<void> {
  const step = state.config.jobs.stepMs;
  await state.wait(step);
  if (cancelled(batch)) return finishCancel(state, batch, [], []);
  const emulate = batch.metadata?.emulate;
  if (emulate === 'fail') {
    return fail(state, batch, [
      { code: 'invalid_request', message: 'The batch failed validation: metadata.emulate is "fail", so the emulator failed it.', param: 'metadata', line: null },
    ]);
  }
  if (batch.completion_window !== '24h') {
    return fail(state, batch, [{ code: 'invalid_request', message: `The completion window '${batch.completion_window}' is not supported; use '24h'.`, param: 'completion_window', line: null }]);
  }
  const input = state.files.get(batch.input_file_id);
  if (!input) return fail(state, batch, [{ code: 'input_no_permissions', message: `The input file ${batch.input_file_id} is gone (it was deleted).`, param: 'input_file_id', line: null }]);
  const checked = validateBatchInput(state, input.data, batch.endpoint.includes('responses') ? 'responses' : 'chat');
  if ('errors' in checked) return fail(state, batch, checked.errors);

  batch.model = checked.deployment;
  batch.status = 'in_progress';
  batch.in_progress_at = nowSeconds();
  batch.request_counts.total = checked.lines.length;
  const output: string[] = [];
  const errors: string[] = [];
  // The lines share one step, so a batch of any size moves at a pace one can watch.
  const perLine = step / checked.lines.length;
  const expireAfter = emulate === 'expire' ? Math.ceil(checked.lines.length / 2) : Infinity;
  for (const [i, line] of checked.lines.entries()) {
    await state.wait(perLine);
    if (cancelled(batch)) return finishCancel(state, batch, output, errors);
    if (i >= expireAfter) {
      const why = 'This request could not be executed before the completion window expired.';
      for (const rest of checked.lines.slice(i)) errors.push(errorLine(rest, 'batch_expired', why));
      writeFiles(state, batch, output, errors);
      return end(state, batch, 'expired');
    }
    const r = await answerLine(state, batch, line);
    (r.ok ? output : errors).push(r.json);
    batch.request_counts[r.ok ? 'completed' : 'failed']++;
  }
  batch.status = 'finalizing';
  batch.finalizing_at = nowSeconds();
  await state.wait(step);
  writeFiles(state, batch, output, errors);
  end(state, batch, 'completed');
}

/** Cancelling lasts a step, then the batch is cancelled with what had finished kept. */
async function finishCancel(state: EmulatorState, batch: BatchObject, output: string[], errors: string[]): Promise<void> {
  await state.wait(state.config.jobs.stepMs);
  writeFiles(state, batch, output, errors);
  end(state, batch, 'cancelled');
}
