/**
 * What a failed forward's error code means for the user, apart from the code that forwards, so
 * views can use it without loading the network stack.
 */

/** How long the user's app has to answer a forwarded delivery. */
export const FORWARD_TIMEOUT_MS = 10_000;

/** A forward's connection error in words, for people (the record keeps the code, e.g. ECONNREFUSED). */
export function explainForwardError(error: string): string {
  switch (error) {
    case 'ECONNREFUSED':
      return 'ECONNREFUSED: nothing is listening there. Is the app running, on that port?';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `${error}: the app did not answer within ${FORWARD_TIMEOUT_MS / 1000} s.`;
    case 'ENOTFOUND':
      return 'ENOTFOUND: the host name does not resolve.';
    case 'ECONNRESET':
      return 'ECONNRESET: the app closed the connection without answering.';
    case 'PROXY_407':
      return 'PROXY_407: the proxy in http.proxy (or HTTPS_PROXY) asks for a user name and password. Put them in the proxy URL, or add the app\'s host to http.noProxy.';
    default:
      return /^PROXY_\d{3}$/.test(error) ? `${error}: the proxy in http.proxy (or HTTPS_PROXY) refused to connect to the app (${error.slice(6)}).` : error;
  }
}
