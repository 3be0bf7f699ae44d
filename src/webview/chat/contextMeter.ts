/**
 * How much of the model's input window the next request will use: the last reply's usage (its
 * prompt and completion are both in the next prompt), plus the draft and what is attached.
 * Warns from 80 %, so the user can start a new chat before the service refuses.
 */
import * as l10n from '@vscode/l10n';
import { modelProfile } from '../../chat/modelProfile';
import type { ConversationView, DeploymentOption } from '../../chat/model';
import { estimateTokens } from '../../chat/tokenEstimate';

export const WARN_AT = 0.8;

export interface ContextUse {
  used: number;
  max: number;
  /** True when part of `used` is estimated (no reply yet, a draft, attachments). */
  estimated: boolean;
}

/** The model behind the conversation: the picker's listing, else the last reply's, else the deployment's name. */
export function modelOf(c: ConversationView, deployments: readonly DeploymentOption[]): string {
  const listed = deployments.find((d) => d.connectionId === c.connectionId && d.deployment === c.deployment)?.model;
  return listed ?? c.turns.findLast((t) => t.model)?.model ?? c.deployment;
}

export function contextUse(c: ConversationView, deployments: readonly DeploymentOption[], draft: string, attachedTokens: number): ContextUse {
  const max = modelProfile(modelOf(c, deployments)).maxInputTokens;
  const lastIndex = c.turns.findLastIndex((t) => t.role === 'assistant' && t.usage && !t.error);
  let used: number;
  let estimated = draft.length > 0 || attachedTokens > 0;
  if (lastIndex >= 0) {
    const u = c.turns[lastIndex].usage!;
    used = u.prompt_tokens + u.completion_tokens;
    estimated ||= c.turns[lastIndex].usageEstimated === true;
    // Messages after that reply (a failed one, a question not answered yet).
    for (const t of c.turns.slice(lastIndex + 1)) used += estimateTokens(t.content);
  } else {
    used = estimateTokens(c.params.systemPrompt) + c.turns.reduce((n, t) => n + estimateTokens(t.content), 0);
    estimated = true;
  }
  return { used: used + estimateTokens(draft) + attachedTokens, max, estimated };
}

/** Thousands as "12k", "1.5k" (the unit said in the display language). */
const thousands = (n: number | string) => l10n.t({ message: '{0}k', args: [n], comment: ['A number of thousands of tokens, short: 12k'] });
const short = (n: number) => (n >= 10_000 ? thousands(Math.round(n / 1000)) : n >= 1000 ? thousands((n / 1000).toFixed(1)) : String(n));

export function describeUse(u: ContextUse): { text: string; level: 'ok' | 'warn' | 'full'; detail: string } {
  const share = u.used / u.max;
  const level = share >= 1 ? 'full' : share >= WARN_AT ? 'warn' : 'ok';
  const pct = Math.min(999, Math.round(share * 100));
  const text = `${u.estimated ? '~' : ''}${short(u.used)} / ${short(u.max)} (${pct}%)`;
  const advice =
    level === 'full'
      ? [l10n.t('The next request is larger than the model takes: clear the chat or start a new one.')]
      : level === 'warn'
        ? [l10n.t("Near the model's limit: clear the chat or start a new one soon.")]
        : [];
  const detail = [l10n.t("Context: about {0} of the model's {1} input tokens ({2}%).", u.used, u.max, pct), ...advice].join(' ');
  return { text, level, detail };
}
