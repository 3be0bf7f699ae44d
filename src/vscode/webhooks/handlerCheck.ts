/**
 * Check My Handler (the command): the open fixture, or a test event of a type the user picks,
 * sent to the app's route in the checks of webhooks/fixtures/handlerCheck.ts, with progress; the
 * results open as a Markdown document beside the editor and one line goes to the listener's log.
 */
import * as vscode from 'vscode';
import { WEBHOOK_EVENT_TYPES } from '../../service/types';
import type { WebhookFixture } from '../../webhooks/fixtures/format';
import type { HandlerReport } from '../../webhooks/fixtures/handlerCheck';
import { FIXTURE_MARK } from '../../webhooks/fixtures/mark';
import { loadNetwork } from '../bundles';
import { plainLine } from '../plainText';
import type { KnownSecret } from '../../webhooks/store/records';
import type { Route } from '../../webhooks/send/routes';
import type { Transport } from '../../service/transport';

/** What the commands use of the listener (its controller): not Services, whose imports lead back to the bundle's loader. */
export interface HandlerHost {
  knownSecrets(): KnownSecret[];
  forwardRoute(record?: { eventType?: string }): Route | undefined;
  outbound(): Transport;
  readonly output: { info(message: string): void };
}

export interface CheckHandlerArgs {
  /** The app's URL; asked (the route's by default) when absent. */
  url?: string;
  /** The endpoint whose secret the app holds; picked when absent and several are held. */
  endpointId?: string;
  /** The fixture file to send; else the active editor's fixture, else a test event of `type`. */
  uri?: string;
  type?: string;
}

/**
 * Plain arguments (a script's, a test's), or undefined for a Uri (the CodeLens, the context menu).
 * Not args.ts: this bundle would carry its own copy of the tree's classes.
 */
export const plainArgs = <T extends object>(arg: unknown): T | undefined =>
  arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as T) : undefined;

/** A fixture file's text: a fixture, or why it is not one. */
export function fixtureOfText(text: string): WebhookFixture | string {
  const parsed = loadNetwork().parseFixture(text);
  return parsed.ok ? parsed.fixture : parsed.reason;
}

/** The fixture to send: the file named or clicked, the active editor's when it is one, else a test event of a type picked. */
export async function chosenFixture(arg: unknown, type?: string): Promise<{ fixture: WebhookFixture; from: string } | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : typeof (arg as CheckHandlerArgs)?.uri === 'string' ? vscode.Uri.parse((arg as CheckHandlerArgs).uri!) : undefined;
  const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  if (doc && (uri || doc.getText().includes(FIXTURE_MARK))) {
    const f = fixtureOfText(doc.getText());
    if (typeof f === 'string') throw new Error(vscode.l10n.t('{0} is not a webhook fixture: {1}.', vscode.workspace.asRelativePath(doc.uri), f));
    return { fixture: f, from: vscode.workspace.asRelativePath(doc.uri) };
  }
  const picked =
    type ??
    (
      await vscode.window.showQuickPick(
        WEBHOOK_EVENT_TYPES.map((t) => ({ label: t })),
        { title: vscode.l10n.t('Check My Handler: no fixture is open; the type of test event to send'), ignoreFocusOut: true },
      )
    )?.label;
  if (!picked) return undefined;
  const { fixtureOf, testEventBody } = loadNetwork();
  return { fixture: fixtureOf(picked, testEventBody(picked), { 'content-type': 'application/json' }, { catalog: true }), from: vscode.l10n.t('a test event') };
}

/** The secret the app verifies with: a held one (picked when several), or typed in (kept nowhere). */
async function appSecret(listener: HandlerHost, endpointId?: string): Promise<string | undefined> {
  const known = listener.knownSecrets();
  const byId = endpointId ? known.find((k) => k.endpointId === endpointId) : known.length === 1 ? known[0] : undefined;
  if (byId) return byId.secret;
  if (known.length) {
    const typed = { label: vscode.l10n.t("Type the secret your app uses…"), secret: null };
    const held = known.map((k) => ({ label: plainLine(k.label ?? k.endpointId), description: plainLine(k.endpointId), secret: k.secret as string | null }));
    const pick = await vscode.window.showQuickPick(
      [...held, typed],
      { title: vscode.l10n.t('Check My Handler: the endpoint whose secret the app uses'), ignoreFocusOut: true },
    );
    if (!pick) return undefined;
    if (pick.secret) return pick.secret;
  }
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Check My Handler: the signing secret your app verifies with'),
    prompt: vscode.l10n.t('Used for this check only, never stored. Start listening with an endpoint created here to have it filled in.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (/^whsec_[A-Za-z0-9+/=]{16,}$/.test(v.trim()) ? undefined : vscode.l10n.t('A Standard Webhooks secret: whsec_ and base64.')),
  });
}

export async function checkMyHandler(listener: HandlerHost, arg: unknown): Promise<HandlerReport | undefined> {
  const args = plainArgs<CheckHandlerArgs>(arg);
  const chosen = await chosenFixture(arg, args?.type);
  if (!chosen) return undefined;
  const { fixture } = chosen;
  const secret = await appSecret(listener, args?.endpointId);
  if (!secret) return undefined;
  const route = listener.forwardRoute({ eventType: fixture.type });
  const url =
    args?.url ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Check My Handler: the URL of your app that handles {0}', fixture.type),
      prompt: vscode.l10n.t('About 26 signed deliveries are sent to it, only on this machine.'),
      value: route?.url ?? 'http://localhost:3000/webhook',
      validateInput: (v) => loadNetwork().handlerUrlProblem(v.trim()),
      ignoreFocusOut: true,
    }))?.trim();
  if (!url) return undefined;
  const { checkHandler, checkName, handlerReportMarkdown, HANDLER_CHECKS } = loadNetwork();
  const progress = { location: vscode.ProgressLocation.Notification, title: plainLine(vscode.l10n.t('Checking the handler of {0}…', fixture.type)), cancellable: true };
  const report = await vscode.window.withProgress(progress, (bar, token) => {
    const stop = new AbortController();
    token.onCancellationRequested(() => stop.abort());
    return checkHandler({
      fixture,
      url,
      secret: secret.trim(),
      signal: stop.signal,
      outbound: listener.outbound(),
      onStep: (check, i, n) => bar.report({ message: vscode.l10n.t('{0} of {1}: {2}', i + 1, n, checkName(check)), increment: 100 / HANDLER_CHECKS.length }),
    });
  });
  for (const r of report.results) listener.output.info(`Handler check of ${report.url}, ${r.check}: ${r.outcome} (${r.answers.map((a) => a.status ?? a.error).join(', ')})`);
  listener.output.info(`Handler check of ${report.url} with ${chosen.from}: ${report.summary}`);
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: handlerReportMarkdown(report) });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  if (!args?.url) {
    const show = report.sound ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(plainLine(report.summary, 1000));
  }
  return report;
}
