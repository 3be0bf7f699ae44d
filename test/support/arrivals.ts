/**
 * When requests arrive at our own loopback servers, seen from outside the client: Node announces
 * every request an `http` server has read the headers of (`http.server.request.start`), and the
 * server's port tells which ones are ours. The spread of the arrivals (last − first) is how close
 * together a compare round's requests were sent.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

const REQUEST_ARRIVED = 'http.server.request.start';

/** The port of a server's URL (`http://127.0.0.1:1234`). */
const portOf = (url: string) => Number(new URL(url).port);

export class Arrivals {
  readonly moments: number[] = [];
  private readonly ports: Set<number>;
  private readonly listener = (message: unknown) => {
    const port = (message as { socket?: { localPort?: unknown } } | null)?.socket?.localPort;
    if (typeof port === 'number' && this.ports.has(port)) this.moments.push(performance.now());
  };

  /** Records the requests that arrive at any of the servers at `urls` until stopped. */
  constructor(urls: readonly string[]) {
    this.ports = new Set(urls.map(portOf));
    subscribe(REQUEST_ARRIVED, this.listener);
  }

  stop(): void {
    unsubscribe(REQUEST_ARRIVED, this.listener);
  }

  /** Last − first arrival (ms); none until two arrived. */
  get spreadMs(): number | undefined {
    return this.moments.length < 2 ? undefined : Math.max(...this.moments) - Math.min(...this.moments);
  }
}
