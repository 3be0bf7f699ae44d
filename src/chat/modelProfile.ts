/**
 * What a model family can do, for every place that adapts to the model: which API it speaks,
 * which parameters it refuses, whether it takes images and tools, how large its windows are.
 * Figures are the families' published limits; a deployment's own limits, where the service
 * reports them, take precedence where they are used.
 */

export type ChatApi = 'chat' | 'responses';

export interface ModelProfile {
  /** The table entry that matched (e.g. `gpt-4o`), or the model name itself when none did. */
  family: string;
  /** False when no entry matched: the figures are cautious defaults. */
  known: boolean;
  /** Reasoning models refuse `temperature`/`top_p` and `max_tokens`, and take `reasoning_effort`. */
  reasoning: boolean;
  /** The APIs the service accepts the model on. */
  apis: readonly ChatApi[];
  /** The API to use when both work. */
  preferredApi: ChatApi;
  imageInput: boolean;
  toolCalling: boolean;
  maxInputTokens: number;
  maxOutputTokens: number;
}

type Entry = Omit<ModelProfile, 'family' | 'known' | 'preferredApi'> & { preferredApi?: ChatApi };

const BOTH: readonly ChatApi[] = ['chat', 'responses'];
const RESPONSES_ONLY: readonly ChatApi[] = ['responses'];

const chatModel = (maxInputTokens: number, maxOutputTokens: number, imageInput = true): Entry => ({
  reasoning: false, apis: BOTH, imageInput, toolCalling: true, maxInputTokens, maxOutputTokens,
});
const reasoningModel = (maxInputTokens: number, maxOutputTokens: number, imageInput = true, apis = BOTH): Entry => ({
  reasoning: true, apis, imageInput, toolCalling: true, maxInputTokens, maxOutputTokens,
});

/** Families by name prefix; the longest matching prefix wins (`gpt-4o-mini` before `gpt-4o`). */
const FAMILIES: Record<string, Entry> = {
  'gpt-35-turbo': chatModel(16_385, 4_096, false),
  'gpt-3.5-turbo': chatModel(16_385, 4_096, false),
  'gpt-4': chatModel(8_192, 4_096, false),
  'gpt-4-32k': chatModel(32_768, 4_096, false),
  'gpt-4-turbo': chatModel(128_000, 4_096),
  'gpt-4o': chatModel(128_000, 16_384),
  'gpt-4o-mini': chatModel(128_000, 16_384),
  'gpt-4.1': chatModel(1_047_576, 32_768),
  'gpt-4.5': chatModel(128_000, 16_384),
  'gpt-5-chat': chatModel(128_000, 16_384),
  'gpt-5': reasoningModel(272_000, 128_000),
  'gpt-5-codex': reasoningModel(272_000, 128_000, true, RESPONSES_ONLY),
  'gpt-5-pro': reasoningModel(272_000, 128_000, true, RESPONSES_ONLY),
  'gpt-5.1-codex': reasoningModel(272_000, 128_000, true, RESPONSES_ONLY),
  'codex-mini': reasoningModel(200_000, 100_000, true, RESPONSES_ONLY),
  'o1': reasoningModel(200_000, 100_000),
  'o1-mini': reasoningModel(128_000, 65_536, false),
  'o1-pro': reasoningModel(200_000, 100_000, true, RESPONSES_ONLY),
  'o3': reasoningModel(200_000, 100_000),
  'o3-mini': reasoningModel(200_000, 100_000, false),
  'o3-pro': reasoningModel(200_000, 100_000, true, RESPONSES_ONLY),
  'o4-mini': reasoningModel(200_000, 100_000),
  'computer-use-preview': { ...chatModel(8_192, 1_024), apis: RESPONSES_ONLY },
};

const PREFIXES = Object.keys(FAMILIES).sort((a, b) => b.length - a.length);

/** A model name matches a family when it is the family or continues it with `-` or `.` (a version or a variant). */
function familyOf(model: string): string | undefined {
  const name = model.toLowerCase();
  return PREFIXES.find((p) => name === p || (name.startsWith(p) && /^[-.]/.test(name.slice(p.length))));
}

/** The profile of a model, by its model name (a deployment's `model`) or, failing that, the deployment name. */
export function modelProfile(model: string | undefined): ModelProfile {
  const name = (model ?? '').trim();
  const family = familyOf(name);
  if (family) {
    const entry = FAMILIES[family]!;
    return { ...entry, family, known: true, preferredApi: entry.preferredApi ?? (entry.apis.includes('chat') ? 'chat' : 'responses') };
  }
  // Unknown names: reasoning if they look like one of the reasoning lines, cautious limits otherwise.
  const reasoning = /^(o\d|gpt-5)/i.test(name);
  return {
    family: name, known: false, reasoning, apis: BOTH, preferredApi: 'chat',
    imageInput: false, toolCalling: true, maxInputTokens: 128_000, maxOutputTokens: 4_096,
  };
}
