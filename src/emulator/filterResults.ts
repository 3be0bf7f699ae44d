/**
 * The content filter annotations the emulator sends, in Azure's shapes: every category safe by
 * default, and on demand (`/filter <category>`, `/annotate`) one category blocked or detected,
 * so each reading in src/service/contentFilter.ts can be seen without a real filter.
 */
import { HttpError } from './wire';

const SAFE = { filtered: false, severity: 'safe' };
export const SAFE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
/** A prompt's results also carry the prompt shields, jailbreak and indirect attack (Azure's v1 description requires both). */
const PROMPT_SAFE = { ...SAFE_RESULTS, jailbreak: { filtered: false, detected: false }, indirect_attack: { filtered: false, detected: false } };
export const PROMPT_FILTER = [{ prompt_index: 0, content_filter_results: PROMPT_SAFE }];

/** Categories `/filter <category>` blocks in the prompt (a 400); the severity ones carry a severity, the others `detected`. */
export const PROMPT_FILTER_CATEGORIES = ['hate', 'sexual', 'violence', 'self_harm', 'jailbreak', 'indirect_attack'] as const;
/** Protected material is found in the completion, never the prompt: `/filter` of these ends the reply (200, finish_reason content_filter). */
export const REPLY_FILTER_CATEGORIES = ['protected_material_text', 'protected_material_code'] as const;
export const FILTER_CATEGORIES = [...PROMPT_FILTER_CATEGORIES, ...REPLY_FILTER_CATEGORIES] as const;
/** Categories `/annotate <category>` marks on a reply that is not blocked (a choice's categories). */
export const ANNOTATE_CATEGORIES = ['hate', 'sexual', 'violence', 'self_harm', ...REPLY_FILTER_CATEGORIES] as const;
/** What protected code cites: the source the code matched and its license, as the service names them. */
export const CODE_CITATION = { URL: 'https://github.com/contoso/fibonacci-samples/blob/main/fib.py', license: 'MIT' };
const SEVERITY = new Set(['hate', 'sexual', 'violence', 'self_harm']);

/** The result object with `category` blocked (severity high) or detected. */
function tripped(category: string, filtered: boolean, base: Record<string, unknown> = SAFE_RESULTS): Record<string, unknown> {
  const verdict = SEVERITY.has(category) ? { filtered, severity: filtered ? 'high' : 'low' } : { filtered, detected: true };
  if (category === 'protected_material_code') Object.assign(verdict, { citation: CODE_CITATION });
  return { ...base, [category]: verdict };
}

/**
 * The 400 the service sends when the prompt is blocked. Without a category: hate (high) and
 * violence (medium), as before; with one: that category alone.
 */
export function contentFilterError(category?: string): HttpError {
  const result = category ? tripped(category, true, PROMPT_SAFE) : { ...PROMPT_SAFE, hate: { filtered: true, severity: 'high' }, violence: { filtered: true, severity: 'medium' } };
  return new HttpError(400, {
    error: {
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. " +
        'To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766',
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: result },
    },
  });
}

/**
 * A choice's results. The filter ended the reply: `category` blocked (violence at medium without
 * one). Annotated: `category` (protected text without one) detected or low, not blocked.
 */
export function replyFilterResults(finish: string, annotate: boolean, category?: string): Record<string, unknown> {
  if (finish === 'content_filter') return category ? tripped(category, true) : { ...SAFE_RESULTS, violence: { filtered: true, severity: 'medium' } };
  return annotate ? tripped(category ?? 'protected_material_text', false) : SAFE_RESULTS;
}
