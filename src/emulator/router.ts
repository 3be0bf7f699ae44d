/** Route table types shared by the emulator's route modules. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorState } from './state';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: EmulatorState;
  /** Headers every answer carries (request id, region). */
  baseHeaders: Record<string, string>;
  /** The caller's token is good but its principal holds no role: it sees no subscriptions. */
  roleless?: boolean;
  /** The body as a JSON object, with the service's errors for bad input. */
  json(): Promise<Record<string, unknown>>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Matched against the path; capture groups are passed to the handler. */
  path: RegExp;
  handler: (ctx: RouteContext, params: string[]) => Promise<void> | void;
}
