/**
 * Per-event routes: which of the user's apps an event type goes to (`"batch.*"` → the batch
 * handler, `"*"` → the rest), like stripe listen's `--forward-to` per event. Every forward and replay
 * asks `routeFor`, so they cannot disagree. Routes send only to this machine: a
 * route is the user's data leaving on each delivery, and a typo must not send it elsewhere.
 */
import { isLoopbackUrl } from './forwardUrl';

/** Event-type pattern → app URL, as the setting and the launch configuration hold them. */
export type Routes = Readonly<Record<string, string>>;

/** Where a delivery goes, and why: the route's pattern, or none when it is the plain forward URL. */
export interface Route {
  url: string;
  /** The pattern that matched (`batch.*`); absent: no route matched and `forwardTo` took it. */
  pattern?: string;
}

/** Routes that can be used, and in words why the others are not (shown to the user, each skipped alone). */
export interface CheckedRoutes {
  routes: Routes;
  problems: string[];
}

/** An exact type (`batch.completed`), a prefix (`batch.*`, `fine_tuning.job.*`) or `*`. */
const PATTERN = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$/i;

/** Keeps the routes that may be used; says of each other one what is wrong and what to write instead. */
export function checkRoutes(raw: unknown): CheckedRoutes {
  const problems: string[] = [];
  const routes: Record<string, string> = {};
  if (raw === undefined || raw === null) return { routes, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { routes, problems: ['The routes are not an object of event-type patterns to URLs, e.g. {"batch.*": "http://localhost:3001/hooks/batch"}.'] };
  }
  for (const [pattern, value] of Object.entries(raw as Record<string, unknown>)) {
    const shown = JSON.stringify(pattern);
    if (!PATTERN.test(pattern)) {
      problems.push(`The route ${shown} is not an event type, a "prefix.*" or "*": it is skipped.`);
      continue;
    }
    let url: URL;
    try {
      url = new URL(String(value));
    } catch {
      problems.push(`The route ${shown} does not go to a URL: write your app's webhook URL, e.g. http://localhost:3001/webhook.`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      problems.push(`The route ${shown} is not an http:// or https:// URL: it is skipped.`);
    } else if (url.username || url.password) {
      problems.push(`The route ${shown} holds a user name or password: nothing is sent to it (it would be stored and shown with every event).`);
    } else if (!isLoopbackUrl(url.href)) {
      problems.push(`The route ${shown} sends deliveries to ${url.host}, which is not this machine: routes go only to localhost, 127.0.0.1 or [::1].`);
    } else {
      routes[pattern] = url.href;
    }
  }
  return { routes, problems };
}

/**
 * The route an event type takes: an exact type first, then the longest `prefix.*` that matches,
 * then `"*"`; a type no route matches goes to `fallback` (the forward URL), or nowhere. The
 * routes are taken as given: check them first (`checkRoutes`).
 */
export function routeFor(type: string | undefined, routes: Routes | undefined, fallback?: string): Route | undefined {
  const all = routes ?? {};
  if (type !== undefined) {
    if (Object.hasOwn(all, type) && !type.endsWith('*')) return { url: all[type], pattern: type };
    let best: string | undefined;
    for (const pattern of Object.keys(all)) {
      if (!pattern.endsWith('.*')) continue;
      const prefix = pattern.slice(0, -1);
      if (type.startsWith(prefix) && (best === undefined || pattern.length > best.length)) best = pattern;
    }
    if (best !== undefined) return { url: all[best], pattern: best };
  }
  if (Object.hasOwn(all, '*')) return { url: all['*'], pattern: '*' };
  return fallback ? { url: fallback } : undefined;
}
