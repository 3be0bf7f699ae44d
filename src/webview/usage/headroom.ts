/**
 * The rate-limit headroom as the usage page says it: what the service's last answer said was left
 * of a deployment's requests and tokens, against the deployment's limits. A limit is one the
 * service told: its `x-ratelimit-limit-*` headers, or the deployment's rate limits from Resource
 * Manager (per minute). Without one, the figure is what is left only: never an invented limit.
 * No DOM here: tested in plain Node.
 */
import * as l10n from '@vscode/l10n';
import type { RateLimitHeadroom } from '../../usage/record';

/** A deployment's per-minute limits from Resource Manager (the connection's catalog). */
export interface DeploymentLimits {
  connectionId: string;
  deployment: string;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export interface HeadroomFigure {
  what: 'requests' | 'tokens';
  left: number;
  /** Undefined when neither the headers nor Resource Manager said it. */
  limit?: number;
  /** The limit is known to be per minute (Resource Manager says so; the headers do not). */
  perMinute: boolean;
  /** "tokens: 38,200 of 50,000 left per minute" or "tokens: 38,200 left (limit not known)". */
  text: string;
}

const count = (n: number) => n.toLocaleString('en');

/** Whole sentences for translators: what was left, against a limit per minute, a limit, or none. */
const SAID = {
  requests: {
    perMinute: (left: string, limit: string) => l10n.t('requests: {0} of {1} left per minute', left, limit),
    of: (left: string, limit: string) => l10n.t('requests: {0} of {1} left', left, limit),
    only: (left: string) => l10n.t('requests: {0} left (limit not known)', left),
  },
  tokens: {
    perMinute: (left: string, limit: string) => l10n.t('tokens: {0} of {1} left per minute', left, limit),
    of: (left: string, limit: string) => l10n.t('tokens: {0} of {1} left', left, limit),
    only: (left: string) => l10n.t('tokens: {0} left (limit not known)', left),
  },
};

function figure(what: HeadroomFigure['what'], left: number | undefined, fromHeaders: number | undefined, perMinuteLimit: number | undefined): HeadroomFigure | undefined {
  if (left === undefined) return undefined;
  // The headers' limit is the one `left` counts down from; Resource Manager's is the deployment's per minute.
  const limit = fromHeaders ?? perMinuteLimit;
  const perMinute = limit !== undefined && limit === perMinuteLimit;
  const said = SAID[what];
  const text = limit === undefined ? said.only(count(left)) : (perMinute ? said.perMinute : said.of)(count(left), count(limit));
  return { what, left, limit, perMinute, text };
}

/** The requests and tokens figures of one deployment's last headroom (those the service sent). */
export function headroomFigures(h: RateLimitHeadroom, limits?: DeploymentLimits): HeadroomFigure[] {
  return [
    figure('requests', h.remainingRequests, h.limitRequests, limits?.requestsPerMinute),
    figure('tokens', h.remainingTokens, h.limitTokens, limits?.tokensPerMinute),
  ].filter((f): f is HeadroomFigure => f !== undefined);
}

/** The share left, 0 to 1, for the meter; undefined without a limit. */
export function shareLeft(f: HeadroomFigure): number | undefined {
  if (f.limit === undefined || f.limit <= 0) return undefined;
  return Math.min(1, Math.max(0, f.left / f.limit));
}

/** How long ago, as a person says it: "just now", "2 min ago", "3 h ago", "2 days ago". */
export function ago(thenMs: number, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (s < 60) return l10n.t('just now');
  const min = Math.floor(s / 60);
  if (min < 60) return l10n.t('{0} min ago', min);
  const h = Math.floor(min / 60);
  if (h < 48) return l10n.t('{0} h ago', h);
  return l10n.t('{0} days ago', Math.floor(h / 24));
}
