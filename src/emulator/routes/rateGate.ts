/**
 * The per-deployment rate limits both inference routes enforce, as the service does: a 429 with
 * `retry-after` (seconds) and `retry-after-ms` when a request or its tokens would go over, and the
 * `x-ratelimit-*` headers on every answer.
 */
import type { DeploymentConfig } from '../config';
import type { RouteContext } from '../router';
import { azureError } from '../wire';

/** Takes the request from the deployment's budget: the headers to answer with, or a thrown 429. */
export function passRateLimits(ctx: RouteContext, deployment: DeploymentConfig, tokens: number, operation: 'ChatCompletions_Create' | 'Responses_Create'): Record<string, string> {
  const rate = ctx.state.limits.take(deployment.name, { requests: deployment.requestsPerMinute, tokens: deployment.tokensPerMinute }, tokens);
  const headers = {
    'x-ratelimit-limit-requests': String(rate.limitRequests),
    'x-ratelimit-limit-tokens': String(rate.limitTokens),
    'x-ratelimit-remaining-requests': String(rate.remainingRequests),
    'x-ratelimit-remaining-tokens': String(rate.remainingTokens),
  };
  if (rate.allowed) return headers;
  const secs = Math.max(1, Math.ceil(rate.retryAfterMs / 1000));
  const version = ctx.url.searchParams.get('api-version') ?? 'v1';
  throw azureError(
    429,
    '429',
    `Requests to the ${operation} Operation under Azure OpenAI API version ${version} have exceeded ${rate.which === 'tokens' ? 'token' : 'call'} rate limit ` +
      `of your current OpenAI ${deployment.sku} pricing tier. Please retry after ${secs} seconds.`,
    { 'retry-after': String(secs), 'retry-after-ms': String(Math.ceil(rate.retryAfterMs)), ...headers },
  );
}
