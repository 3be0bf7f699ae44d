/**
 * The checks every message protocol builds on (the chat, compare, inspector and usage pages, on
 * both sides): plain functions, shared by the host and the pages.
 */
export type Obj = Record<string, unknown>;

/** A plain object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The value when it is a plain object, for reading nested fields (`asObj(x)?.field`). */
export const asObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);

/** A string of at most `max` characters: every protocol bounds what it takes. */
export const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
