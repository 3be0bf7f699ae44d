/**
 * What a request costs, estimated from a price table per model. The shipped defaults are list
 * prices read from public pages (each with its page and the day it was read); Azure bills Data
 * Zone and Regional deployments, and newer snapshots, differently, so the user's setting can
 * override or extend them. A model without a price has no cost (undefined), never 0, and every
 * caller shows a cost as an estimate.
 */
import * as l10n from '@vscode/l10n';

/** US dollars per million tokens. `batchDiscount`: the share taken off for the Batch API (0.5 = half price). */
export interface ModelPrice {
  input: number;
  cachedInput?: number;
  output: number;
  batchDiscount?: number;
}

/** Keys: a model name ("gpt-4o") or a model at one version ("gpt-4o@2024-05-13"), lower case. */
export type PriceTable = ReadonlyMap<string, ModelPrice>;

/**
 * Azure's Batch API: "50% less cost than global standard".
 * Source: https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/batch (read 2026-11-24).
 */
export const DEFAULT_BATCH_DISCOUNT = 0.5;

/** Shipped prices, USD per 1M tokens (input, cached input, output): list prices for the Global Standard tier. */
export const DEFAULT_PRICES: PriceTable = new Map<string, ModelPrice>([
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-4o', { input: 2.5, cachedInput: 1.25, output: 10 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-4o-mini', { input: 0.15, cachedInput: 0.075, output: 0.6 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-4.1', { input: 2, cachedInput: 0.5, output: 8 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-4.1-mini', { input: 0.4, cachedInput: 0.1, output: 1.6 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-4.1-nano', { input: 0.1, cachedInput: 0.025, output: 0.4 }],
  // "o1 and o1-preview": https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['o1', { input: 15, cachedInput: 7.5, output: 60 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['o3-mini', { input: 1.1, cachedInput: 0.55, output: 4.4 }],
  // https://modelpedia.dev/openai/o3 (read 2026-11-24; OpenAI's price after its June 2025 cut)
  ['o3', { input: 2, cachedInput: 0.5, output: 8 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['o4-mini', { input: 1.1, cachedInput: 0.275, output: 4.4 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-5', { input: 1.25, cachedInput: 0.125, output: 10 }],
  // https://raw.githubusercontent.com/simonw/llm-prices/main/data/openai.json (read 2026-11-24)
  ['gpt-5-mini', { input: 0.25, cachedInput: 0.025, output: 2 }],
  // https://developers.openai.com/api/docs/models/gpt-5-nano (read 2026-11-24)
  ['gpt-5-nano', { input: 0.05, cachedInput: 0.005, output: 0.4 }],
  // https://developers.openai.com/api/docs/models/gpt-5-codex (read 2026-11-24)
  ['gpt-5-codex', { input: 1.25, cachedInput: 0.125, output: 10 }],
]);

/** A model name without its dated suffix ("gpt-4o-2024-08-06" is "gpt-4o"). */
const undated = (name: string) => name.replace(/-\d{4}-\d{2}-\d{2}$/, '');

/** The price of a model at a version: "model@version" first, then the model, then its undated name. */
export function priceFor(table: PriceTable, model: string | undefined, version?: string): ModelPrice | undefined {
  if (!model) return undefined;
  const name = model.trim().toLowerCase();
  if (version) {
    const exact = table.get(`${name}@${version.trim().toLowerCase()}`);
    if (exact) return exact;
  }
  return table.get(name) ?? table.get(undated(name));
}

/**
 * Estimated US dollars for one request's tokens: cached input at its own price (input's when the
 * model has none), reasoning inside the output tokens, the batch discount off everything.
 */
export function costOf(price: ModelPrice, tokens: { prompt: number; cached: number; completion: number }, batch = false): number {
  const cached = Math.min(tokens.cached, tokens.prompt);
  const dollars = ((tokens.prompt - cached) * price.input + cached * (price.cachedInput ?? price.input) + tokens.completion * price.output) / 1e6;
  return batch ? dollars * (1 - (price.batchDiscount ?? DEFAULT_BATCH_DISCOUNT)) : dollars;
}

/** The fields a price entry may have, with what each must hold. */
const FIELDS: Record<keyof ModelPrice, { required: boolean; max: number; what: () => string }> = {
  input: { required: true, max: 10_000, what: () => l10n.t('dollars per million input tokens') },
  cachedInput: { required: false, max: 10_000, what: () => l10n.t('dollars per million cached input tokens') },
  output: { required: true, max: 10_000, what: () => l10n.t('dollars per million output tokens') },
  batchDiscount: { required: false, max: 1, what: () => l10n.t('the share taken off for batches, from 0 to 1 (0.5 = half price)') },
};

const shown = (v: unknown) => (typeof v === 'string' ? `"${v.slice(0, 40)}"` : String(JSON.stringify(v)).slice(0, 40));

/** The problem with one entry of the setting, or its price. */
function readEntry(key: string, value: unknown): { price?: ModelPrice; problem?: string } {
  const name = key.slice(0, 80);
  if (!/^[^@\s]{1,200}(@[^@\s]{1,64})?$/.test(key)) {
    return { problem: l10n.t('Price for "{0}": the name must be a model name, or "model@version" (e.g. "{1}").', name, 'gpt-4o@2024-11-20') };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: l10n.t('Price for "{0}": expected an object such as {1}, not {2}.', name, '{ "input": 2.5, "cachedInput": 1.25, "output": 10 }', shown(value)) };
  }
  const entry = value as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !(k in FIELDS));
  if (unknown.length) {
    return { problem: l10n.t('Price for "{0}": unknown field "{1}"; the fields are input, cachedInput, output and batchDiscount.', name, unknown[0].slice(0, 40)) };
  }
  for (const [field, rule] of Object.entries(FIELDS)) {
    const v = entry[field];
    if (v === undefined && !rule.required) continue;
    // Stryker disable next-line ConditionalExpression: Number.isFinite alone decides; typeof tells TypeScript
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > rule.max) {
      return {
        problem:
          v === undefined
            ? l10n.t('Price for "{0}": "{1}" must be {2}, and is missing.', name, field, rule.what())
            : l10n.t('Price for "{0}": "{1}" must be {2}, not {3}.', name, field, rule.what(), shown(v)),
      };
    }
  }
  const { input, cachedInput, output, batchDiscount } = entry as Partial<ModelPrice>;
  return { price: { input: input as number, cachedInput, output: output as number, batchDiscount } };
}

/**
 * The defaults with the user's setting over them. Each bad entry gets its own message and is
 * left out whole (the default, if any, stays); the good ones apply.
 */
export function readPriceSetting(setting: unknown, defaults: PriceTable = DEFAULT_PRICES): { table: PriceTable; problems: string[] } {
  const table = new Map(defaults);
  if (setting === undefined || setting === null) return { table, problems: [] };
  if (typeof setting !== 'object' || Array.isArray(setting)) {
    return { table, problems: [l10n.t('The price setting must be an object of model names to prices, not {0}; the shipped prices apply.', shown(setting))] };
  }
  const problems: string[] = [];
  for (const [key, value] of Object.entries(setting)) {
    const { price, problem } = readEntry(key, value);
    if (price) table.set(key.toLowerCase(), price);
    else problems.push(`${problem} ${l10n.t('This entry is ignored; the others apply.')}`);
  }
  return { table, problems };
}
