/** The cursor-paged lists of the v1 API: `after`, `limit`, `order`, answered as `{object:"list",…}`. */
import type { RouteContext } from '../router';
import { invalidRequest } from '../wire';

export interface ListOptions {
  defaultLimit: number;
  maxLimit: number;
  /** Whether `order=asc|desc` is taken (newest first by default). */
  ordered?: boolean;
}

export function limitParam(ctx: RouteContext, defaultLimit: number, maxLimit: number): number {
  const raw = ctx.url.searchParams.get('limit');
  const limit = raw === null ? defaultLimit : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw invalidRequest(`Invalid 'limit': expected an integer from 1 to ${maxLimit}, but got '${raw}'.`, 'limit', 'invalid_value');
  return limit;
}

/** One page of `newestFirst` after the `after` cursor (an id), with `has_more`. */
export function listPage<T extends { id: string }>(
  ctx: RouteContext,
  newestFirst: T[],
  options: ListOptions,
): { object: 'list'; data: T[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  const limit = limitParam(ctx, options.defaultLimit, options.maxLimit);
  const order = (options.ordered && ctx.url.searchParams.get('order')) || 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalidRequest(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'order', 'invalid_value');
  let items = order === 'asc' ? [...newestFirst].reverse() : newestFirst;
  const after = ctx.url.searchParams.get('after');
  if (after) {
    const i = items.findIndex((x) => x.id === after);
    items = i < 0 ? [] : items.slice(i + 1);
  }
  const data = items.slice(0, limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: items.length > limit };
}
