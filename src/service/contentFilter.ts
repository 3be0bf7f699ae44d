/**
 * Azure's content filter verdicts read into words: which category, how severe, whether the prompt
 * or the reply tripped it, and what to do. One reader for every shape the service sends: a 400
 * `content_filter` error (`innererror.content_filter_result`, or the spec's `inner_error` /
 * `content_filter_results`), a 200 with `prompt_filter_results[]` and a choice's
 * `content_filter_results`, and the Responses API's `content_filters[]` (`source_type` prompt or
 * completion). Names and details from the service are kept as text, never as markup.
 */
import * as l10n from '@vscode/l10n';
import { asObj } from './shapes';

export type FilterSeverity = 'safe' | 'low' | 'medium' | 'high';

export interface FilterVerdict {
  category: FilterCategory;
  /** The service's own key, kept for a category this reader does not know (shown as text). */
  key: string;
  where: 'prompt' | 'reply';
  /** The request or the reply was blocked for it. */
  filtered: boolean;
  /** Severity categories (hate, sexual, violence, self_harm) carry one; detection categories do not. */
  severity?: FilterSeverity;
  /** Protected material (code): the published source the reply matched and its license, as text from the service. */
  citation?: { url?: string; license?: string };
}

/** The categories this reader knows, each with its name in the user's words. */
const NAMES = {
  hate: () => l10n.t('hate'),
  sexual: () => l10n.t('sexual content'),
  violence: () => l10n.t('violence'),
  self_harm: () => l10n.t('self-harm'),
  jailbreak: () => l10n.t('jailbreak (prompt attack)'),
  protected_material_text: () => l10n.t('protected material (text)'),
  protected_material_code: () => l10n.t('protected material (code)'),
  indirect_attack: () => l10n.t('indirect attack (in a document or tool result)'),
  profanity: () => l10n.t('profanity'),
  custom_blocklists: () => l10n.t('a custom blocklist'),
};

export type FilterCategory = keyof typeof NAMES | 'other';

const SEVERITIES: readonly FilterSeverity[] = ['safe', 'low', 'medium', 'high'];

/** `citation: {URL, license}` kept as plain strings (clipped), or nothing when it names neither. */
function readCitation(raw: unknown): FilterVerdict['citation'] {
  const c = asObj(raw);
  const text = (x: unknown, max: number) => (typeof x === 'string' && x.trim() ? x.trim().slice(0, max) : undefined);
  const url = text(c?.URL ?? c?.url, 2048);
  const license = text(c?.license, 200);
  if (!url && !license) return undefined;
  return { ...(url && { url }), ...(license && { license }) };
}

/**
 * The verdicts worth telling in one result object: each category filtered, detected, or at a
 * severity above safe. A safe, undetected category says nothing and is left out.
 */
export function readFilterResults(results: unknown, where: FilterVerdict['where']): FilterVerdict[] {
  const out: FilterVerdict[] = [];
  for (const [key, raw] of Object.entries(asObj(results) ?? {})) {
    const v = asObj(raw);
    if (!v || key === 'error') continue;
    const severity = SEVERITIES.includes(v.severity as FilterSeverity) ? (v.severity as FilterSeverity) : undefined;
    const filtered = v.filtered === true;
    const notable = filtered || v.detected === true || (severity !== undefined && severity !== 'safe');
    if (!notable) continue;
    const category = Object.hasOwn(NAMES, key) ? (key as FilterCategory) : 'other';
    const citation = readCitation(v.citation);
    out.push({ category, key: key.slice(0, 64), where, filtered, severity, ...(citation && { citation }) });
  }
  return out;
}

/** Every verdict in a chat completion, a chunk of one, or a Responses API object. */
export function readFilterVerdicts(body: unknown): FilterVerdict[] {
  const b = asObj(body) ?? {};
  const out: FilterVerdict[] = [];
  for (const p of Array.isArray(b.prompt_filter_results) ? b.prompt_filter_results : []) out.push(...readFilterResults(asObj(p)?.content_filter_results, 'prompt'));
  for (const c of Array.isArray(b.choices) ? b.choices : []) out.push(...readFilterResults(asObj(c)?.content_filter_results, 'reply'));
  // Responses API: `content_filters: [{ source_type: 'prompt' | 'completion', blocked, content_filter_results }]`.
  for (const f of Array.isArray(b.content_filters) ? b.content_filters : []) {
    const entry = asObj(f);
    out.push(...readFilterResults(entry?.content_filter_results, entry?.source_type === 'prompt' ? 'prompt' : 'reply'));
  }
  return out;
}

/** The verdicts of a 400 error body, either spelling (`innererror`/`inner_error`, `content_filter_result(s)`); the prompt tripped them. */
export function readFilterError(body: unknown): FilterVerdict[] {
  const err = asObj(asObj(body)?.error);
  const inner = asObj(err?.innererror) ?? asObj(err?.inner_error);
  return readFilterResults(inner?.content_filter_result ?? inner?.content_filter_results, 'prompt');
}

/** The category's name in the user's words; the service's own key for one this reader does not know. */
export function categoryName(v: FilterVerdict): string {
  return v.category === 'other' ? v.key : NAMES[v.category]();
}

/** "violence (medium) in the prompt": one verdict as a phrase. */
export function verdictPhrase(v: FilterVerdict): string {
  const name = v.severity && v.severity !== 'safe' ? l10n.t('{0} ({1} severity)', categoryName(v), v.severity) : categoryName(v);
  return v.where === 'prompt' ? l10n.t('{0} in the prompt', name) : l10n.t('{0} in the reply', name);
}

/** Categories with advice of their own; the others (severity categories, blocklists, unknown) get "rephrase". */
const SPECIFIC: readonly FilterCategory[] = ['jailbreak', 'indirect_attack', 'protected_material_text', 'protected_material_code'];

/** What to do about the verdicts that blocked: one hint per kind of cause, and where the filter is configured. */
export function filterAdvice(verdicts: readonly FilterVerdict[]): string[] {
  const blocked = verdicts.filter((v) => v.filtered);
  const hints: string[] = [];
  if (blocked.some((v) => v.category === 'jailbreak')) {
    hints.push(l10n.t('The instructions read as an attempt to override the model: the system prompt or the message trips the jailbreak filter. Shorten or rephrase the instructions.'));
  }
  if (blocked.some((v) => v.category === 'indirect_attack')) {
    hints.push(l10n.t('Text inside an attached document or a tool result reads as instructions to the model: remove it or mark it as data.'));
  }
  const material = blocked.filter((v) => v.category.startsWith('protected_material'));
  if (material.length) hints.push(...materialNotes(material), l10n.t('Ask for an original answer or a summary instead.'));
  if (blocked.some((v) => !SPECIFIC.includes(v.category))) {
    hints.push(
      blocked.some((v) => v.where === 'prompt')
        ? l10n.t('Rephrase the message and send it again.')
        : l10n.t('Ask again in other words, or ask for a shorter reply.'),
    );
  }
  if (blocked.length) hints.push(l10n.t("The filter configuration is on the deployment: Resource Manager's raiPolicyName (Azure AI Foundry → Guardrails + controls)."));
  return hints;
}

/**
 * "The reply tripped protected material (code): it matches published code at {URL} (license: MIT).":
 * one sentence per protected-material verdict on a reply, blocked or only detected. The URL and license are
 * the service's text, to be shown as text, never made a link.
 */
export function materialNotes(verdicts: readonly FilterVerdict[]): string[] {
  // The service finds protected material in completions only: a prompt's verdict gets no sentence.
  return verdicts
    .filter((v) => v.where === 'reply' && (v.category === 'protected_material_text' || v.category === 'protected_material_code'))
    .map((v) => {
      const name = categoryName(v);
      if (v.category === 'protected_material_text') return l10n.t('The reply tripped {0}: it matches known published text.', name);
      const source = v.citation?.url ?? l10n.t('an unnamed source');
      const license = v.citation?.license;
      return license
        ? l10n.t('The reply tripped {0}: it matches published code at {1} (license: {2}).', name, source, license)
        : l10n.t('The reply tripped {0}: it matches published code at {1}.', name, source);
    });
}

/** One sentence naming what was blocked, or undefined when no verdict blocked anything. */
export function blockedSummary(verdicts: readonly FilterVerdict[]): string | undefined {
  const blocked = verdicts.filter((v) => v.filtered);
  if (!blocked.length) return undefined;
  return l10n.t('Blocked by the content filter: {0}.', blocked.map(verdictPhrase).join(', '));
}

/** Annotations on a reply that was not blocked (detected, or above safe), for a badge shown on request. */
export function annotations(verdicts: readonly FilterVerdict[]): FilterVerdict[] {
  return verdicts.filter((v) => !v.filtered);
}
