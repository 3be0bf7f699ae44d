// What a journey is handed by its runner (scripts/host/ui-e2e.mjs): the parts it started for this
// journey alone, typed by what the journeys use of them.
import type { Page } from 'playwright-core';

/** The emulator the journey talks to (scripts/host/emulatorProcess.mjs). */
export interface EmulatorHandle {
  /** Its origin, e.g. http://127.0.0.1:1234. */
  readonly url: string;
  /** The API key it accepts. */
  readonly key: string;
}

/** The code-server whose workbench the page shows (scripts/host/codeServer.mjs). */
export interface CodeServerHandle {
  /** Its own folder: user data (settings files) and anything a journey saves through the workbench. */
  readonly root: string;
  /** The folder open in the workbench (its workspace): files a journey puts there show in pickers. */
  readonly folder: string;
  /** In a journey run in the pseudo-locale: its texts (package.nls.qps-ploc.json, bundle.l10n.qps-ploc.json) by key. */
  readonly pseudoLocale?: { readonly nls: Record<string, string>; readonly bundle: Record<string, string> };
}

/** The folder screenshots go to (.test-artifacts/), named after what they show. */
export type ArtifactsFolder = string;

/** One journey: drives the workbench open in `page` and throws on what a user would notice is wrong. */
export type Journey = (page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle) => Promise<void>;
