/**
 * Azure's content filter verdicts read into words (issue #39): which category, how severe, whether
 * the prompt or the reply tripped it, and what to do. One reader for every place the service puts
 * them: a refused request's `innererror.content_filter_result(s)`, the prompt's and each choice's
 * `content_filter_results` in Chat Completions, and the same objects in the Responses API.
 * Names and severities come from outside: they are shown as text, cut, and never as markup.
 */
import * as l10n from '@vscode/l10n';

export type FilterSide = 'prompt' | 'reply';

export interface FilterVerdict {
  /** The service's name: hate, sexual, violence, self_harm, jailbreak, protected_material_text… */
  category: string;
  /** safe, low, medium, high (the harm categories); absent for the detected-or-not ones. */
  severity?: string;
  filtered: boolean;
  detected?: boolean;
  side: FilterSide;
}

const cut = (s: string) => s.replace(/[^\w-]/g, '').slice(0, 40);

/** Every category of one result object (`{ hate: { filtered, severity }, jailbreak: { filtered, detected } … }`). */
export function verdictsOf(results: unknown, side: FilterSide): FilterVerdict[] {
  if (!results || typeof results !== 'object' || Array.isArray(results)) return [];
  const out: FilterVerdict[] = [];
  for (const [name, value] of Object.entries(results as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const v = value as { filtered?: unknown; severity?: unknown; detected?: unknown };
    if (typeof v.filtered !== 'boolean') continue;
    const verdict: FilterVerdict = { category: cut(name), filtered: v.filtered, side };
    if (typeof v.severity === 'string') verdict.severity = cut(v.severity);
    if (typeof v.detected === 'boolean') verdict.detected = v.detected;
    out.push(verdict);
  }
  return out;
}

/** The prompt's annotations: `prompt_filter_results` (Chat Completions) or `prompt_filter_result(s)` in other spellings. */
export function promptVerdicts(list: unknown): FilterVerdict[] {
  const items = (Array.isArray(list) ? list : list ? [list] : []) as Array<{ content_filter_results?: unknown; content_filter_result?: unknown } | null>;
  return items.flatMap((item) => verdictsOf(item?.content_filter_results ?? item?.content_filter_result, 'prompt'));
}

/** What a person reads for a category. */
export function categoryName(category: string): string {
  const names: Record<string, string> = {
    hate: l10n.t('hate'),
    sexual: l10n.t('sexual content'),
    violence: l10n.t('violence'),
    self_harm: l10n.t('self-harm'),
    jailbreak: l10n.t('a jailbreak attempt'),
    indirect_attack: l10n.t('an indirect attack (instructions hidden in a document or a tool result)'),
    protected_material_text: l10n.t('protected text (lyrics, articles, recipes…)'),
    protected_material_code: l10n.t('protected code (from public repositories)'),
    profanity: l10n.t('profanity'),
    custom_blocklists: l10n.t('a custom blocklist'),
  };
  return names[category] ?? category;
}

/** "hate (high), violence (medium)" for the verdicts that filtered. */
export function trippedText(verdicts: readonly FilterVerdict[]): string {
  return verdicts
    .filter((v) => v.filtered)
    .map((v) => (v.severity && v.severity !== 'safe' ? l10n.t('{0} ({1})', categoryName(v.category), v.severity) : categoryName(v.category)))
    .join(', ');
}

/** What to change, for what tripped and on which side. */
export function filterAdvice(verdicts: readonly FilterVerdict[], side: FilterSide): string {
  const tripped = new Set(verdicts.filter((v) => v.filtered).map((v) => v.category));
  const advice: string[] = [];
  if (tripped.has('jailbreak')) {
    advice.push(l10n.t('The instructions or the message read as an attempt to get around the model\'s rules: shorten or rephrase the system prompt, and the message.'));
  }
  if (tripped.has('indirect_attack')) advice.push(l10n.t('A document or tool result in the conversation carries instructions: leave it out, or mark it as data.'));
  if (tripped.has('protected_material_text') || tripped.has('protected_material_code')) {
    advice.push(l10n.t('The reply would repeat protected material: ask for a summary or an answer in its own words.'));
  }
  const harms = ['hate', 'sexual', 'violence', 'self_harm', 'profanity', 'custom_blocklists'].some((c) => tripped.has(c));
  if (harms || advice.length === 0) {
    advice.push(side === 'prompt' ? l10n.t('Rephrase the message and send it again.') : l10n.t('Ask in another way: the reply crossed the deployment\'s thresholds.'));
  }
  advice.push(l10n.t('The thresholds are the deployment\'s content filter (Resource Manager: raiPolicyName).'));
  return advice.join(' ');
}
