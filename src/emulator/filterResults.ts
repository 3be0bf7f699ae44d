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

/** Categories `/filter <category>` may name; the severity ones carry a severity, the others `detected`. */
export const FILTER_CATEGORIES = ['hate', 'sexual', 'violence', 'self_harm', 'jailbreak', 'indirect_attack', 'protected_material_text', 'protected_material_code'] as const;
const SEVERITY = new Set(['hate', 'sexual', 'violence', 'self_harm']);

/** The result object with `category` blocked (severity high) or detected. */
function tripped(category: string, filtered: boolean, base: Record<string, unknown> = SAFE_RESULTS): Record<string, unknown> {
  const verdict = SEVERITY.has(category) ? { filtered, severity: filtered ? 'high' : 'low' } : { filtered, detected: true };
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

/** A choice's results: violence blocked when the filter ended the reply, protected text detected (not blocked) when annotated. */
export function replyFilterResults(finish: string, annotate: boolean): Record<string, unknown> {
  if (finish === 'content_filter') return { ...SAFE_RESULTS, violence: { filtered: true, severity: 'medium' } };
  return annotate ? tripped('protected_material_text', false) : SAFE_RESULTS;
}
