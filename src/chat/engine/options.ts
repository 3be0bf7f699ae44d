/**
 * Where the chat panel and VS Code's chat legitimately differ, named in one place. Everything
 * else (the API choice, the request each API gets, the fallback to Responses, the adapt-and-resend
 * loop, the usage report) is the same for both by construction: runner.ts.
 *
 * Two differences are per request rather than per chat, and live on RunRequest:
 * - `continuation`: only the panel continues a stored reply (`previous_response_id`), since only
 *   it stores replies; VS Code's chat sends the whole conversation every time.
 * - background replies: the panel's setting starts a reply with `startBackground` (background.ts)
 *   instead of `runChat`; VS Code's chat always streams.
 */

/** Where a request came from, for the usage report (issue 27 adds compare and batch). */
export type RequestSource = 'panel' | 'vscode-chat' | 'compare' | 'inline';

export interface RunnerOptions {
  source: RequestSource;
  /**
   * A 429 is waited out with a countdown (RunRequest.onRetryWait) and sent again, twice at most,
   * when the wait is within `maxRetryWaitMs`: the panel, where the user sees the countdown and can
   * stop. VS Code's chat surfaces it at once: it has no countdown to show, and its consumer decides.
   */
  waitOutRateLimits: boolean;
  /** The longest rate-limit wait waited out (default a minute); a longer one is the user's to decide. */
  maxRetryWaitMs?: number;
  /**
   * Responses API: keep the reply on the service (`store: true`), so the next turn continues from
   * it. The panel does; VS Code's chat does not (nothing of the user's is left on the service).
   */
  store: boolean;
  /** Ask a reasoning model for a summary of its thinking: the panel shows it; VS Code's chat has no place for it. */
  reasoningSummaries: boolean;
  /**
   * A reply the content filter ends part way throws ReplyFilteredError after what arrived was
   * streamed: VS Code's chat reports it as Blocked. The panel keeps the reply, with the same
   * message among its notes.
   */
  failFiltered: boolean;
}

export const PANEL_RUN: Readonly<RunnerOptions> = { source: 'panel', waitOutRateLimits: true, store: true, reasoningSummaries: true, failFiltered: false };

export const VSCODE_CHAT_RUN: Readonly<RunnerOptions> = { source: 'vscode-chat', waitOutRateLimits: false, store: false, reasoningSummaries: false, failFiltered: true };

/**
 * The compare view: a 429 stays in its column with its countdown (the other columns go on), a
 * filtered reply keeps what arrived, nothing is stored on the service and no thinking is shown.
 */
export const COMPARE_RUN: Readonly<RunnerOptions> = { source: 'compare', waitOutRateLimits: false, store: false, reasoningSummaries: false, failFiltered: false };

/**
 * Inline suggestions: a 429 pauses them (the status bar says until when; nothing waits), nothing
 * is stored on the service, no thinking is shown, and a filtered answer is simply no suggestion.
 */
export const INLINE_RUN: Readonly<RunnerOptions> = { source: 'inline', waitOutRateLimits: false, store: false, reasoningSummaries: false, failFiltered: false };
