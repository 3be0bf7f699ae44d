/**
 * How a forward URL may be shown, stored and logged, apart from the code that forwards: the
 * delivery views use it without loading undici (the main bundle stays small).
 */

/** The URL as it may be shown, stored and logged: the values of its query (`?token=…`) and any user name or password masked. */
export function maskedUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    // Not a web URL: whatever comes before an `@`, or after a `?` or a `#`, may be a credential.
    return url.replace(/^([^?#@]*@)/, '***@').replace(/[?#].*$/, '?***');
  }
  if (parsed.username) parsed.username = '***';
  if (parsed.password) parsed.password = '***';
  const query = [...parsed.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=***`).join('&');
  parsed.search = query ? `?${query}` : parsed.search ? '?***' : '';
  parsed.hash = '';
  return parsed.href.replace(/%2A%2A%2A/g, '***');
}
