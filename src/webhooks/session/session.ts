/** One use of the window's listener ("Start Listening", or a debug session): see listeningSession.ts. */
import { routeFor, type Route, type Routes } from '../send/routes';
import type { ConnectionRef, ListeningState, SessionEndpoints } from './types';

export class ListeningSession<C extends ConnectionRef = ConnectionRef> {
  /** The endpoint pointed at the listener, and whether this session (or an earlier "Start Listening") created it. */
  endpointId: string | undefined;
  createdEndpointId: string | undefined;
  /** A re-pointed endpoint's URL before the session (put back by undo, when asked to). */
  originalUrl: string | undefined;
  /** How this session changes its endpoint: a reopened tunnel's new URL goes through it. */
  endpoints: SessionEndpoints | undefined;
  /** Steps that undo what was done, newest last. */
  readonly steps: Array<() => Promise<unknown>> = [];

  constructor(
    readonly state: ListeningState<C>,
    private readonly target: () => string | undefined,
    private readonly routes: () => Routes | undefined = () => undefined,
  ) {}

  /** Where this session's verified deliveries (and replays of them) go: the route of their type, else the forward URL. */
  forwardRoute(type?: string): Route | undefined {
    return routeFor(type, this.routes(), this.target());
  }

  /** Undoes every step, newest first; a step that fails does not keep the others from running. */
  async undo(): Promise<Error[]> {
    const failed: Error[] = [];
    for (let step = this.steps.pop(); step; step = this.steps.pop()) await step().catch((err: unknown) => failed.push(err as Error));
    return failed;
  }
}
