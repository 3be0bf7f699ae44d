// The UI journeys, end to end through the real workbench in Chromium as a person would use it, by
// title: scripts/host/ui-e2e.mjs runs each one (or those HOST_GREP matches) in a fresh emulator,
// code-server and browser, at the end of `npm run test:host`. Each journey lives in this folder by
// feature and saves screenshots into the artifacts folder.
import { chatThroughTheUi, reasoningThroughTheUi } from './chat';
import { chatUxThroughTheUi } from './chatUx';
import { compareThroughTheUi } from './compare';
import { inlineThroughTheUi } from './inline';
import { deployThroughTheUi } from './deploy';
import type { Journey } from './handles';
import { batchThroughTheUi, callThroughTheUi, fineTuningThroughTheUi } from './jobs';
import { pseudoLocaleThroughTheUi } from './pseudoLocale';
import { tracesThroughTheUi } from './traces';
import { usageThroughTheUi } from './usage';
import { walkthroughThroughTheUi } from './walkthrough';
import { inspectThroughTheUi, listenThroughTheUi, rotateThroughTheUi } from './webhooks';
import { addConnectionThroughTheUi } from './workbench';

export interface TitledJourney {
  /** What the journey shows works; HOST_GREP matches it. */
  readonly title: string;
  readonly run: Journey;
  /** The display language to run in (scripts/host/ui-e2e.mjs knows qps-ploc, the pseudo-locale); English when absent. */
  readonly locale?: 'qps-ploc';
  /** Runs in `npm start`'s set-up: a local identity provider VS Code signs in to (scripts/host/localAzure.mjs). */
  readonly localAzure?: true;
}

export const journeys: readonly TitledJourney[] = [
  { title: 'UI: add a connection through the command palette wizard and see its deployments in the sidebar', run: addConnectionThroughTheUi },
  {
    title: 'UI: chat in the panel: streamed markdown with usage, HTML in a reply executes nothing, Stop ends a reply, the panel survives a reload',
    run: chatThroughTheUi,
  },
  {
    title:
      'UI: chat panel UX: example prompts; the view follows the reply unless scrolled up (Jump to latest); a refused message comes back to edit; ' +
      'usable at 300 px in light, dark and high contrast; actions on hover; context meter; Ask About Selection',
    run: chatUxThroughTheUi,
  },
  {
    title: 'UI: chat with a Responses-only deployment: the reasoning summary in a collapsed section, reasoning tokens in the usage line, a reply in the background',
    run: reasoningThroughTheUi,
  },
  {
    title:
      'UI: Start Listening from the palette, a delivery appears verified in the Webhook Events view; after a reload it is still there, ' +
      'the inspector comes back on it, and Listen Again resumes with the same endpoint',
    run: listenThroughTheUi,
  },
  {
    title: "UI: a delivery the app refused opens in the inspector from its row (trace, headers, the app's HTML as text); edit and replay shows the new answer; themes, narrow",
    run: inspectThroughTheUi,
  },
  {
    title:
      'UI: inline suggestions: Use Deployment for Inline Suggestions from the palette, ghost text from the emulator in a TypeScript file, ' +
      "the status bar names the deployment, Tab takes it (UPDATE_MEDIA=1 writes the README's picture)",
    run: inlineThroughTheUi,
  },
  { title: "UI: Rotate Signing Secret from an endpoint's context menu: both rows marked during the overlap, Finish Rotation leaves one", run: rotateThroughTheUi },
  {
    title: 'UI: Compare Deployments: three picked, replies side by side with figures, Run again medians, stacked at 300 px in light, dark and high contrast, export',
    run: compareThroughTheUi,
  },
  {
    title:
      "UI: usage view: empty state, then a chat's tokens and estimated cost appear live; the status bar shows them and opens it; Export as CSV; " +
      'light, dark, high contrast, 300 px',
    run: usageThroughTheUi,
  },
  {
    title: 'UI: jobs: Create Batch from a workspace file; its batch.completed delivery updates the row and Open Results shows the lines; the inspector opens them; themes, 300 px',
    run: batchThroughTheUi,
  },
  {
    title: 'UI: jobs: an incoming call accepted from its notification; its SIP headers as a table in the inspector (markup as text); hung up there; themes, 300 px',
    run: callThroughTheUi,
  },
  {
    title: "UI: jobs: a fine-tuning job's page from its row follows it to succeeded, with the loss per step as a chart and a table; themes, 300 px",
    run: fineTuningThroughTheUi,
  },
  {
    title:
      "UI: no account, as npm start sets it up: Add Connection from Azure with DefaultAzureCredential; a fine-tuning job's Deploy makes a deployment " +
      'through Resource Manager; Open Chat on it answers',
    run: deployThroughTheUi,
    localAzure: true,
  },
  {
    title:
      'UI: pseudo-locale: the sidebar, the wizard, the status bar, the delivery inspector and the chat panel show no English of ours ' +
      '(every text translated, only data left as it came)',
    run: pseudoLocaleThroughTheUi,
    locale: 'qps-ploc',
  },
  {
    title:
      'UI: a turn with a tool call shows its trace: another extension asks through vscode.lm and runs the tool; Show Trace lists the tool span; ' +
      "light, dark, 300 px (UPDATE_MEDIA=1 writes the README's picture)",
    run: tracesThroughTheUi,
  },
  {
    title:
      "UI: the Get Started walkthrough opens at the first look at the sidebar; each step checks itself as the user does it from its buttons: the emulator, a chat, " +
      "listening, a test event in the inspector, VS Code's chat (its model picker lists the deployments; a reply to another extension through vscode.lm), debugging with webhooks " +
      "(UPDATE_MEDIA=1 writes its pictures and the README's into media/)",
    run: walkthroughThroughTheUi,
  },
];
