/**
 * What a forward URL may be and how it is shown: plain string work, apart from forward.ts so that
 * the inspector's view (loaded at activation) does not pull the network stack into the main bundle.
 */
import { isIPv4 } from 'node:net';

/** This machine by address: `localhost`, 127.0.0.0/8 or ::1 (no other name: a resolver would decide where deliveries go). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || (isIPv4(host) && host.startsWith('127.'));
}

/**
 * Why a forward URL is refused, if it is: a user name or password in it would be sent with every
 * delivery and kept wherever the URL is shown (events on disk, the log), so it is not used at all.
 */
export function forwardUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The forward URL "${maskedUrl(url)}" is not a URL: use your app's webhook URL, e.g. http://localhost:3000/webhook.`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `The forward URL "${maskedUrl(url)}" is not an http:// or https:// URL: use your app's webhook URL, e.g. http://localhost:3000/webhook.`;
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
    return (
      'The forward URL holds a user name or password, so nothing is sent to it (it would be stored and shown with every event): ' +
      `use ${maskedUrl(parsed.href)} and let the app check the webhook signature instead.`
    );
  }
  return undefined;
}

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
